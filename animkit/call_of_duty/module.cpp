#include "animkit/call_of_duty/module.h"

#include <fmt/format.h>

#include "animkit/call_of_duty/atr_document.h"
#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/play_scenario.h"
#include "animkit/call_of_duty/tree_output.h"
#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_import.h"

namespace animkit::call_of_duty {

namespace {

// `animkit demo`: a small tree built from text, loaded with script references, its .dot and .svg.
void demo(DemoContext& ctx) {
  const char* text =
      "// a demo tree in the style of the stock ones\n"
      "main\n"
      "{\n"
      "    stand_idle\n"
      "    aim : complete nonloopsync\n"
      "    {\n"
      "        aim_left\n"
      "        aim_center\n"
      "        aim_right\n"
      "    }\n"
      "    legs\n"
      "    {\n"
      "        walk_loop\n"
      "        run_loop\n"
      "    }\n"
      "    testmap_testing\n"
      "    {\n"
      "    }\n"
      "}\n";
  LoadOptions o;
  o.tree_name = "demo_human";
  o.file = "animtrees/demo_human.atr";
  for (const char* name : {"stand_idle", "aim", "walk_loop", "testmap_testing"}) {
    o.references.push_back({name, "demo.gsc", 0, 0, 0});
  }
  const LoadResult r = load_anim_tree(text, o);
  ctx.out << fmt::format(
      "call_of_duty: tree '{}' loaded with {} references: {} nodes, checksum 0x{:08x}; "
      "%stand_idle = node {}, %walk_loop = node {}\n",
      o.tree_name, o.references.size(), r.anim ? r.anim->node_count : 0,
      r.anim ? r.anim->checksum : 0, r.find("stand_idle").value_or(-1),
      r.find("walk_loop").value_or(-1));
  const std::string dot = tree_dot(r);
  write_text(ctx.out_dir / "cod_demo_human.dot", dot);
  if (graphviz_available()) {
    try {
      write_text(ctx.out_dir / "cod_demo_human.svg", render_svg(dot));
      ctx.out << "call_of_duty: wrote cod_demo_human.dot and cod_demo_human.svg\n";
    } catch (const Error& e) {
      ctx.out << "call_of_duty: wrote cod_demo_human.dot; no SVG: " << e.message() << "\n";
    }
  } else {
    ctx.out << "call_of_duty: wrote cod_demo_human.dot; no SVG: Graphviz `dot` is not installed\n";
  }
}

}  // namespace

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "call_of_duty";
  Format atr;
  atr.name = "cod-atr";
  atr.engine = "call_of_duty";
  atr.description = "Call of Duty: United Offensive animation tree (.atr)";
  atr.sniff = sniff_atr;
  atr.open = open_atr;
  engine.formats.push_back(std::move(atr));
  Format xanim;
  xanim.name = "cod-xanim";
  xanim.engine = "call_of_duty";
  xanim.description = "Call of Duty / United Offensive xanim v14 animation (xanim/<name>)";
  xanim.sniff = sniff_xanim;
  xanim.open = open_xanim;
  xanim.import_gltf = import_xanim_gltf;  // animkit import --as cod-xanim (issue 17)
  engine.formats.push_back(std::move(xanim));
  engine.options = atr_options();
  engine.play = [](const Json& scenario, const std::filesystem::path& base,
                   const PlayOptions& options, std::ostream& out) {
    return play_scenario(scenario, base, options, out);  // animkit play (issue 26)
  };
  engine.demo = demo;
  registry.add(std::move(engine));
}

}  // namespace animkit::call_of_duty
