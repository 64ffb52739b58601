// A minimal SVG writer for `animkit plot`: shapes appended as text, styled by CSS classes given
// once in a <style> block. Coordinates are printed with two decimals (deterministic output).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace animkit::cli {

class Svg {
 public:
  Svg(double width, double height, std::string css);
  void rect(double x, double y, double w, double h, std::string_view cls);
  void line(double x1, double y1, double x2, double y2, std::string_view cls);
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls);
  void circle(double cx, double cy, double r, std::string_view cls);
  // `anchor`: "start", "middle" or "end".
  void text(double x, double y, std::string_view text, std::string_view cls,
            std::string_view anchor = "start");
  // Wraps what follows in a group with a tooltip (<title>) until end_group().
  void begin_group(std::string_view title);
  void end_group();
  std::string str() const;

 private:
  double width_, height_;
  std::string css_;
  std::string body_;
};

std::string xml_escape(std::string_view text);

}  // namespace animkit::cli
