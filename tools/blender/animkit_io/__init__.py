"""animkit I/O: game animation in Blender through the `animkit` Python module (issue 18).

File > Import > "Game animation (animkit)" opens any file animkit reads (every engine's
formats, with the engine's options as import settings) and makes an armature in the engine's
rest pose with one Action per clip, keyed at the clip's keys (and, with "Bake frames", at every
frame), and the clip's events as the Action's pose markers (the first clip's also as scene
timeline markers). The armature object carries the Y-up -> Z-up turn, so bone matrices inside
the armature are animkit's model space exactly: a pose bone's `matrix` at a key is the joint's
model matrix `animkit pose` computes.

File > Export > "Game animation (animkit)" writes the active armature and its Actions as
animkit's neutral JSON (`.json`, which animkit reads back), as glTF 2.0 (`.glb` / `.gltf`,
animkit's writer), or in a game's own format (issue 32: Warriors clip or character, MH pack
entry, CoD xanim, AC animation, Shadow of War events) through the module's `import_gltf` with the
original file as the template. What is in Blender wins: the keys, the pose markers (moved, added,
deleted) and the Action's frame range; the imported exact times, payloads and length are kept
only where they still stand.

The `animkit` module must be importable: put the build's `python/` folder on PYTHONPATH, or
name it in the add-on's preferences ("animkit module folder").
"""

bl_info = {
    "name": "animkit I/O: game animation",
    "author": "animkit",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > Game animation (animkit)",
    "description": "Import and export game character animation with animkit",
    "category": "Import-Export",
}

import os
import sys

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import convert

ADDON = __name__


def _module_folder():
    try:
        prefs = bpy.context.preferences.addons[ADDON].preferences
        return prefs.module_folder
    except (KeyError, AttributeError):
        return ""


def load_animkit():
    """The animkit module, from sys.path or the preferences' folder."""
    folder = _module_folder() or os.environ.get("ANIMKIT_PYTHONPATH", "")
    if folder and folder not in sys.path:
        sys.path.insert(0, bpy.path.abspath(folder))
    import animkit  # noqa: E402  (raises ImportError with Python's own message)

    return animkit


def engine_options():
    """(keyword, help) of every engine option animkit registers, or [] without the module."""
    try:
        animkit = load_animkit()
    except ImportError:
        return []
    seen, out = set(), []
    for engine in animkit.engines():
        for o in engine["options"]:
            if o["keyword"] not in seen:
                seen.add(o["keyword"])
                out.append((o["keyword"], o["help"]))
    return out


class AnimkitPreferences(bpy.types.AddonPreferences):
    bl_idname = ADDON

    module_folder: StringProperty(
        name="animkit module folder",
        description="The folder holding the animkit package (the build's python/ folder)",
        subtype="DIR_PATH",
    )

    def draw(self, context):
        self.layout.prop(self, "module_folder")


class IMPORT_SCENE_OT_animkit(bpy.types.Operator, ImportHelper):
    """Import game animation with animkit (any format animkit reads)"""

    bl_idname = "import_scene.animkit"
    bl_label = "Game animation (animkit)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filter_glob: StringProperty(default="*", options={"HIDDEN"})
    format: StringProperty(name="Format", description="Force a format by name (empty: detect)")
    bake: BoolProperty(
        name="Bake frames",
        description="Key every frame too (exact between the engine's keys, not only at them)",
        default=False,
    )
    meshes: BoolProperty(
        name="Meshes", default=True,
        description="A model's skinned meshes too (a Monster Hunter model PAC), bound to the "
                    "armature (through Blender's glTF importer)")
    # One StringProperty per engine option is added at register() (ENGINE_OPTIONS).

    def execute(self, context):
        try:
            animkit = load_animkit()
        except ImportError as e:
            self.report({"ERROR"}, f"animkit module not found ({e}); see the add-on's preferences")
            return {"CANCELLED"}
        options = {}
        base = os.path.dirname(self.filepath)
        for keyword, _ in ENGINE_OPTIONS:
            value = getattr(self, "opt_" + keyword, "")
            if value:
                # Paths may be given relative to the imported file.
                candidate = os.path.join(base, bpy.path.abspath(value))
                options[keyword] = candidate if os.path.exists(candidate) else value
        if self.format:
            options["format"] = self.format
        try:
            doc = animkit.open(self.filepath, **options)
            animated = doc.animated()
        except animkit.Error as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if animated is None:
            self.report({"ERROR"}, f"{doc.format}: the file holds no skeleton or animation")
            return {"CANCELLED"}
        name = os.path.splitext(os.path.basename(self.filepath))[0]
        obj = convert.build_armature(context, animated, name, bake=self.bake)
        meshes = []
        if self.meshes:
            import tempfile

            with tempfile.TemporaryDirectory() as tmp:
                try:
                    meshes = convert.import_meshes(context, doc, obj, tmp)
                except animkit.Error as e:
                    self.report({"WARNING"}, f"meshes not imported: {e}")
            if meshes:
                self.report({"INFO"}, f"{len(meshes)} skinned mesh object(s) bound to "
                                      f"'{obj.name}'")
        for note in animated.notes:
            self.report({"INFO"}, note)
        self.report({"INFO"}, f"{doc.format}: {len(animated.skeleton)} joints, "
                              f"{len(animated.clips)} clips into '{obj.name}'")
        return {"FINISHED"}

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "format")
        layout.prop(self, "bake")
        layout.prop(self, "meshes")
        box = layout.box()
        box.label(text="Engine options")
        for keyword, _ in ENGINE_OPTIONS:
            box.prop(self, "opt_" + keyword)


# The game formats the export writes (Format.import_gltf), with the original as the template.
GAME_FORMATS = [
    ("neutral", "Neutral JSON / glTF", "animkit's JSON (.json) or glTF 2.0 (.glb / .gltf)"),
    ("warriors-character", "The Warriors: character", "every clip of a character resource"),
    ("warriors-anm", "The Warriors: clip (.anm)", "one clip"),
    ("mh-pack", "Monster Hunter: pack", "the pack with its entries written"),
    ("cod-xanim", "Call of Duty: xanim", "one clip"),
    ("ac-animation", "Asheron's Call: animation", "one clip"),
    ("sow-anix", "Shadow of War: events (.anix)", "the events (the keys are kept raw)"),
]
SINGLE_CLIP = {"warriors-anm", "cod-xanim", "ac-animation"}


class EXPORT_SCENE_OT_animkit(bpy.types.Operator, ExportHelper):
    """Export the active armature and its Actions with animkit (neutral JSON or glTF)"""

    bl_idname = "export_scene.animkit"
    bl_label = "Game animation (animkit)"

    filename_ext = ".json"
    filter_glob: StringProperty(default="*", options={"HIDDEN"})
    rate: FloatProperty(
        name="Rate", description="glTF: resample Hermite tracks at this rate (0: the clip's)",
        default=0.0, min=0.0)
    format: EnumProperty(name="Format", items=GAME_FORMATS, default="neutral",
                         description="What to write: neutral JSON / glTF, or a game's format")
    template: StringProperty(
        name="Template", subtype="FILE_PATH",
        description="The original file (a game format takes what Blender does not hold from it)")
    clip: StringProperty(
        name="Clip", description="The Action to write where the format holds one clip (empty: "
                                 "the active Action; a character or pack takes every one)")
    # One StringProperty per engine option is added at register() (ENGINE_OPTIONS).

    def check(self, context):
        return False  # keep the extension typed (.json, .glb or .gltf)

    def execute(self, context):
        try:
            animkit = load_animkit()
        except ImportError as e:
            self.report({"ERROR"}, f"animkit module not found ({e}); see the add-on's preferences")
            return {"CANCELLED"}
        obj = context.active_object
        if obj is None or obj.type != "ARMATURE":
            obj = next((o for o in context.scene.objects if o.type == "ARMATURE"), None)
        if obj is None:
            self.report({"ERROR"}, "no armature to export")
            return {"CANCELLED"}
        try:
            model = convert.armature_to_neutral(obj)
            animated = animkit.Animated.from_json(model)
            if self.format != "neutral":
                return self.write_game_format(animkit, obj, animated)
        except (animkit.Error, ValueError) as e:  # ValueError: import_gltf's usage errors
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        try:
            if self.filepath.lower().endswith((".glb", ".gltf")):
                animated.export(self.filepath, rate=self.rate)
            else:
                import json

                with open(self.filepath, "w") as f:
                    json.dump(animated.to_json(), f, indent=1)
                    f.write("\n")
        except animkit.Error as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        self.report({"INFO"}, f"{self.filepath}: {len(animated.skeleton)} joints, "
                              f"{len(animated.clips)} clips")
        return {"FINISHED"}

    def write_game_format(self, animkit, obj, animated):
        if not self.template:
            self.report({"ERROR"}, f"{self.format}: name the original file as the template")
            return {"CANCELLED"}
        options = {}
        for keyword, _ in ENGINE_OPTIONS:
            value = getattr(self, "opt_" + keyword, "")
            if value and keyword != "template":
                options[keyword] = bpy.path.abspath(value) if os.path.exists(
                    bpy.path.abspath(value)) else value
        clip = self.clip
        if not clip and self.format in SINGLE_CLIP:
            current = obj.animation_data.action if obj.animation_data else None
            clip = current.name if current else ""
        result = animkit.import_gltf(animated, self.format, self.filepath,
                                     template=bpy.path.abspath(self.template), clip=clip,
                                     **options)
        for note in result["notes"]:
            self.report({"INFO"}, note)
        self.report({"INFO"}, f"{self.filepath}: {self.format}, {result['bytes']} bytes")
        return {"FINISHED"}

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "format")
        if self.format == "neutral":
            layout.prop(self, "rate")
            return
        layout.prop(self, "template")
        layout.prop(self, "clip")
        box = layout.box()
        box.label(text="Engine options")
        for keyword, _ in ENGINE_OPTIONS:
            box.prop(self, "opt_" + keyword)


def menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


def menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_animkit.bl_idname, text="Game animation (animkit)")


ENGINE_OPTIONS = []
CLASSES = (AnimkitPreferences, IMPORT_SCENE_OT_animkit, EXPORT_SCENE_OT_animkit)


def register():
    bpy.utils.register_class(AnimkitPreferences)
    ENGINE_OPTIONS[:] = engine_options()
    for keyword, help_text in ENGINE_OPTIONS:
        for cls in (IMPORT_SCENE_OT_animkit, EXPORT_SCENE_OT_animkit):
            cls.__annotations__["opt_" + keyword] = StringProperty(
                name=keyword.replace("_", " "), description=help_text)
    bpy.utils.register_class(IMPORT_SCENE_OT_animkit)
    bpy.utils.register_class(EXPORT_SCENE_OT_animkit)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
