// A channel's keyframes ("Clips", "Channels") and the block the parse copies them into. Issue 27
// item 5: one std::vector per channel made over half of a parse's instructions malloc/free; now
// read_pack makes one allocation for the whole pack's keys and each channel holds a slice of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "animkit/core/reader.h"

namespace animkit::monster_hunter {

// Keyframe, 8 bytes in both games: s16 value, frame, ease_in, ease_out ("Clips").
struct Keyframe {
  int16_t value = 0;
  int16_t frame = 0;
  int16_t ease_in = 0;
  int16_t ease_out = 0;
  friend bool operator==(const Keyframe&, const Keyframe&) = default;
};

static_assert(sizeof(Keyframe) == 8, "Keyframe is the file's 8 bytes (read and written in bulk)");

// A list of keys with std::vector's value semantics and the subset of its interface the code
// uses. Its storage is a block that may be shared: with the other channels of the pack it was
// read from (a slice of KeyBlock) or with copies of it. Reading never copies; any changing
// access (non-const data/begin/end/[]/front/back, push_back, resize) first gives the list a block
// of its own when the block is shared (copy on write), so channels stay independent values.
// A reference from a changing access is valid until the list is next copied or resized.
class KeyList {
 public:
  using value_type = Keyframe;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = Keyframe&;
  using const_reference = const Keyframe&;
  using iterator = Keyframe*;
  using const_iterator = const Keyframe*;

  KeyList() = default;
  KeyList(std::initializer_list<Keyframe> keys);
  // Implicit: channels are built from fitted and edited vectors.
  KeyList(const std::vector<Keyframe>& keys);  // NOLINT(google-explicit-constructor)
  // `count` keys at `first`, inside `block` (shared, not copied).
  KeyList(std::shared_ptr<std::byte[]> block, const Keyframe* first, size_t count)
      : block_(count != 0 ? std::move(block) : nullptr),
        // The block is mutable storage; the copy on write decides when this list may change it.
        data_(count != 0 ? const_cast<Keyframe*>(first) : nullptr),
        size_(count),
        capacity_(count) {}

  KeyList(const KeyList&) = default;
  KeyList& operator=(const KeyList&) = default;
  // Inline: the parse moves every channel's list into its track.
  KeyList(KeyList&& other) noexcept
      : block_(std::move(other.block_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  KeyList& operator=(KeyList&& other) noexcept;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Keyframe* data() const { return data_; }
  const Keyframe* begin() const { return data_; }
  const Keyframe* end() const { return data_ + size_; }
  const Keyframe* cbegin() const { return data_; }
  const Keyframe* cend() const { return data_ + size_; }
  const Keyframe& operator[](size_t i) const { return data_[i]; }
  const Keyframe& front() const { return data_[0]; }
  const Keyframe& back() const { return data_[size_ - 1]; }

  // Changing access (copy on write).
  Keyframe* data() {
    own(capacity_);
    return data_;
  }
  Keyframe* begin() { return data(); }
  Keyframe* end() { return data() + size_; }
  Keyframe& operator[](size_t i) { return data()[i]; }
  Keyframe& front() { return data()[0]; }
  Keyframe& back() { return data()[size_ - 1]; }
  void push_back(const Keyframe& key);
  void resize(size_t count);  // new keys are Keyframe{}
  void clear();

  std::vector<Keyframe> to_vector() const { return {begin(), end()}; }

  friend bool operator==(const KeyList& a, const KeyList& b);
  friend bool operator==(const KeyList& a, const std::vector<Keyframe>& b);

 private:
  // Makes the block this list's own (unshared) with room for at least `capacity` keys.
  void own(size_t capacity);

  std::shared_ptr<std::byte[]> block_;  // null when the list is empty and owns nothing
  Keyframe* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;  // keys that fit at data_ (a slice's own size: its neighbours follow)
};

// The parse's storage for keys (a pack's, or one clip's read alone): one allocation of at most
// `max_keys` keys, each channel's keys copied in back to back and handed out as slices.
class KeyBlock {
 public:
  explicit KeyBlock(size_t max_keys);
  // `count` keys from the reader (one bounds check, one copy). Throws animkit::Error at the
  // reader's position when they do not fit in the block (the caller's sizes should prevent it).
  KeyList read(Reader& r, uint32_t count) {
    const size_t at = r.pos();
    const Bytes b = r.bytes(size_t{count} * sizeof(Keyframe));
    if (count > capacity_ - used_) overflow(r, at, count);
    auto* keys = reinterpret_cast<Keyframe*>(block_.get()) + used_;
    if (count != 0) std::memcpy(keys, b.data(), b.size());
    used_ += count;
    return KeyList(block_, keys, count);
  }
  size_t used() const { return used_; }

 private:
  [[noreturn]] void overflow(const Reader& r, size_t at, uint32_t count) const;

  std::shared_ptr<std::byte[]> block_;
  size_t capacity_ = 0, used_ = 0;
};

}  // namespace animkit::monster_hunter
