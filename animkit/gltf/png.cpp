#include "animkit/gltf/png.h"

#include <fmt/format.h>
#include <png.h>

#include <csetjmp>

#include "animkit/core/error.h"

namespace animkit::gltf {

namespace {

void append(png_structp png, png_bytep data, png_size_t size) {
  auto* out = static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + size);
}

void flush(png_structp) {}

}  // namespace

std::vector<uint8_t> encode_png(const Image& image) {
  const uint64_t expected = uint64_t{image.width} * image.height * 4;
  if (image.width == 0 || image.height == 0 || image.rgba.size() != expected) {
    throw Error(fmt::format("image '{}': {}x{} needs {} RGBA bytes, has {}", image.name,
                            image.width, image.height, expected, image.rgba.size()));
  }
  std::vector<uint8_t> out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr) {
    png_destroy_write_struct(&png, &info);
    throw Error("libpng: out of memory");
  }
  // libpng reports its errors by longjmp; nothing with a destructor lives between here and there.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw Error(fmt::format("libpng could not encode image '{}'", image.name));
  }
  png_set_write_fn(png, &out, append, flush);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const size_t stride = size_t{image.width} * 4;
  for (uint32_t y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.rgba.data() + y * stride));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

}  // namespace animkit::gltf
