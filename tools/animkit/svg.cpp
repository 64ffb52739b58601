#include "svg.h"

#include <fmt/format.h>

namespace animkit::cli {

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

Svg::Svg(double width, double height, std::string css)
    : width_(width), height_(height), css_(std::move(css)) {}

void Svg::rect(double x, double y, double w, double h, std::string_view cls) {
  body_ += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" "
      "class=\"{}\"/>\n",
      x, y, w, h, cls);
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls) {
  body_ += fmt::format(
      "<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" "
      "class=\"{}\"/>\n",
      x1, y1, x2, y2, cls);
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls) {
  body_ += "<polyline points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    body_ += fmt::format("{}{:.2f},{:.2f}", i ? " " : "", points[i].first, points[i].second);
  }
  body_ += fmt::format("\" class=\"{}\"/>\n", cls);
}

void Svg::circle(double cx, double cy, double r, std::string_view cls) {
  body_ += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{:.2f}\" class=\"{}\"/>\n", cx, cy,
                       r, cls);
}

void Svg::text(double x, double y, std::string_view text, std::string_view cls,
               std::string_view anchor) {
  body_ +=
      fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" class=\"{}\" text-anchor=\"{}\">{}</text>\n", x,
                  y, cls, anchor, xml_escape(text));
}

void Svg::begin_group(std::string_view title) {
  body_ += fmt::format("<g><title>{}</title>\n", xml_escape(title));
}

void Svg::end_group() { body_ += "</g>\n"; }

std::string Svg::str() const {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\">\n<style>{2}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0:.0f}\" height=\"{1:.0f}\" fill=\"#fff\"/>\n{3}</svg>\n",
      width_, height_, css_, body_);
}

}  // namespace animkit::cli
