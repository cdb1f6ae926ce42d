"""The Blender scene of one `CyclesCase`: board, marbles, lamps, hands, objects, camera.

Needs Blender's `bpy` module (PyPI package `bpy`); `vision.render.cycles` imports this module
only when it renders. Blender units are metres; the board's top surface is z = 0, x and y as in
the profile. Holes are spherical dimples cut into the board, marbles glass spheres resting on
the dimple's rim, hands metaballs of a palm, rounded finger segments and a forearm.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import bpy  # first: it makes Blender's other modules (bmesh, mathutils) importable

# isort: split
import bmesh
import cv2
import numpy as np
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

from vision.render.cycles_case import MUG_RADIUS_MM, PHONE_MM, Hand, Lamp, Thing
from vision.render.cycles_print import board_print

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from hw import BoardProfile
    from vision.render.cycles_case import CyclesCase

MM = 0.001
BOARD_THICKNESS_MM = 18.0
DIMPLE_DEPTH_MM = 5.0
METABALL_SURFACE = 0.575  # surface distance / element radius (stiffness 2, threshold 0.6)
COVER_SAMPLES = 8
GLASS_RGB = {
    "red": (0.8, 0.03, 0.02), "yellow": (0.92, 0.72, 0.03), "green": (0.04, 0.55, 0.1),
    "blue": (0.03, 0.12, 0.8),
}
SKIN_LIGHT, SKIN_DARK = np.array([0.78, 0.52, 0.4]), np.array([0.22, 0.11, 0.06])
WOOD_PALE = (np.array([0.58, 0.4, 0.22]), np.array([0.4, 0.24, 0.11]))
WOOD_DARK = (np.array([0.17, 0.085, 0.04]), np.array([0.08, 0.04, 0.018]))


def _vec(x_mm: float, y_mm: float, z_mm: float) -> Vector:
    return Vector((x_mm * MM, y_mm * MM, z_mm * MM))


class Scene:
    """A Cycles scene for one case; `set_frame` places what differs between the two frames."""

    def __init__(self, profile: BoardProfile, case: CyclesCase, threads: int) -> None:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        self.profile = profile
        self.case = case
        self.scene = bpy.context.scene
        self.version = f"Blender {bpy.app.version_string} Cycles"
        self.tmp = tempfile.mkdtemp(prefix="cycles-")
        self._frame_objects: list[Any] = []
        self.marble_z_mm = math.sqrt(max((profile.marble_diameter_mm / 2) ** 2
                                         - (profile.hole_diameter_mm / 2) ** 2, 0.0))
        self._settings(case, threads)
        self._world()
        self._table(case)
        self._board(profile, case)
        self.camera = self._camera(profile, case)
        self._marble_meshes = {colour: self._marble_mesh(colour) for colour in
                               ("red", "yellow", "green", "blue", "white", "black")}

    # ---- fixed parts ---------------------------------------------------------------------

    def _settings(self, case: CyclesCase, threads: int) -> None:
        sc = self.scene
        sc.render.engine = "CYCLES"
        cy = sc.cycles
        cy.device = "CPU"
        cy.samples = case.samples
        cy.use_adaptive_sampling = True
        cy.adaptive_threshold = 0.02
        cy.use_denoising = case.denoise
        if case.denoise:
            cy.denoiser = "OPENIMAGEDENOISE"
            cy.denoising_prefilter, cy.denoising_quality = "FAST", "BALANCED"
        cy.seed = case.seed % 2**31
        cy.max_bounces, cy.diffuse_bounces, cy.glossy_bounces = 8, 2, 3
        cy.transmission_bounces, cy.transparent_max_bounces = 8, 4
        cy.caustics_reflective = cy.caustics_refractive = True
        cy.blur_glossy = 0.5
        cy.sample_clamp_indirect = 10.0
        sc.render.resolution_x, sc.render.resolution_y = case.width, case.height
        sc.render.resolution_percentage = 100
        sc.render.threads_mode = "FIXED"
        sc.render.threads = max(1, threads)
        sc.render.use_persistent_data = True
        sc.render.image_settings.file_format = "OPEN_EXR"
        sc.render.image_settings.color_depth = "32"
        sc.view_settings.view_transform = "Standard"

    def _world(self) -> None:
        world = bpy.data.worlds.new("room")
        world.use_nodes = True
        background = world.node_tree.nodes["Background"]
        background.inputs["Color"].default_value = (0.12, 0.115, 0.11, 1.0)  # walls, ceiling
        self.scene.world = world

    def _link(self, obj: Any, frame: bool = False) -> Any:
        self.scene.collection.objects.link(obj)
        if frame:
            self._frame_objects.append(obj)
        return obj

    def _mesh_object(self, name: str, bm: Any, material: Any, frame: bool = False,
                     smooth: bool = False) -> Any:
        mesh = bpy.data.meshes.new(name)
        if smooth:
            for face in bm.faces:
                face.smooth = True
        bm.to_mesh(mesh)
        bm.free()
        mesh.materials.append(material)
        return self._link(bpy.data.objects.new(name, mesh), frame)

    def _table(self, case: CyclesCase) -> None:
        bm = bmesh.new()
        bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=2.0)
        bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, -BOARD_THICKNESS_MM * MM))
        material = _principled("table", case.table_rgb, roughness=0.6)
        self._mesh_object("table", bm, material)

    def _board(self, profile: BoardProfile, case: CyclesCase) -> None:
        width, height = (v * MM for v in profile.board_mm)
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.scale(bm, vec=(width, height, BOARD_THICKNESS_MM * MM), verts=bm.verts)
        bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, -BOARD_THICKNESS_MM * MM / 2))
        board = self._mesh_object("board", bm, self._board_material(profile, case))
        bevel = board.modifiers.new("edge", "BEVEL")
        bevel.width, bevel.segments = 3 * MM, 3
        cutter = self._dimple_cutter(profile)
        boolean = board.modifiers.new("holes", "BOOLEAN")
        boolean.operation, boolean.solver, boolean.object = "DIFFERENCE", "EXACT", cutter
        self.board = board

    def _dimple_cutter(self, profile: BoardProfile) -> Any:
        """One mesh of spheres whose caps are the dimples (one sphere, copied per hole)."""
        r, d = profile.hole_diameter_mm / 2, DIMPLE_DEPTH_MM
        radius = (r * r + d * d) / (2 * d)
        bm = bmesh.new()
        bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=radius * MM)
        bm.verts.index_update()
        sphere = np.array([v.co[:] for v in bm.verts])
        faces = [[v.index for v in face.verts] for face in bm.faces]
        bm.free()
        centres = np.array([(h.x, h.y, radius - d) for h in profile.holes]) * MM
        verts = (sphere[None] + centres[:, None]).reshape(-1, 3)
        count = len(sphere)
        mesh = bpy.data.meshes.new("dimples")
        mesh.from_pydata(verts.tolist(), [], [[i + n * count for i in face]
                                              for n in range(len(centres)) for face in faces])
        mesh.shade_smooth()
        cutter = self._link(bpy.data.objects.new("dimples", mesh))
        cutter.hide_render = True
        cutter.display_type = "WIRE"
        return cutter

    def _board_material(self, profile: BoardProfile, case: CyclesCase) -> Any:
        material = bpy.data.materials.new("board")
        material.use_nodes = True
        nodes, links = material.node_tree.nodes, material.node_tree.links
        nodes.clear()
        out = nodes.new("ShaderNodeOutputMaterial")
        coords = nodes.new("ShaderNodeTexCoord")
        base = nodes.new("ShaderNodeBsdfPrincipled")
        paint = nodes.new("ShaderNodeBsdfPrincipled")
        paint.inputs["Roughness"].default_value = 0.5
        mix = nodes.new("ShaderNodeMixShader")
        rng = np.random.default_rng([case.seed, 11])
        # The print, mapped from object coordinates (metres) onto the board's 0…1 square.
        fill = case.board_fill * min(case.width, case.height) / max(profile.board_mm)
        px_per_mm = float(np.clip(1.5 * fill, 1.5, 3.5))
        texture = board_print(profile, px_per_mm, case.wear, case.printed_rings, case.seed)
        image = bpy.data.images.new("print", texture.shape[1], texture.shape[0], alpha=True,
                                    float_buffer=True)
        image.pixels.foreach_set(texture.ravel())
        image.pack()
        printed = nodes.new("ShaderNodeTexImage")
        printed.image = image
        printed.extension = "CLIP"
        mapping = nodes.new("ShaderNodeMapping")
        mapping.inputs["Scale"].default_value = (1 / (profile.board_mm[0] * MM),
                                                 1 / (profile.board_mm[1] * MM), 1)
        mapping.inputs["Location"].default_value = (0.5, 0.5, 0)
        links.new(coords.outputs["Object"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], printed.inputs["Vector"])
        links.new(printed.outputs["Color"], paint.inputs["Base Color"])
        # Inside a dimple (normal away from +z) the raw, darker material shows, unpainted.
        geometry = nodes.new("ShaderNodeNewGeometry")
        normal = nodes.new("ShaderNodeSeparateXYZ")
        links.new(geometry.outputs["Normal"], normal.inputs["Vector"])
        inside = _math(nodes, links, "MULTIPLY", _math(nodes, links, "SUBTRACT", 1.0,
                                                       normal.outputs["Z"]), 25.0, clamp=True)
        surface = _math(nodes, links, "MULTIPLY", printed.outputs["Alpha"],
                        _math(nodes, links, "SUBTRACT", 1.0, inside))
        links.new(surface, mix.inputs["Fac"])
        if case.material == "wood":
            colour = self._wood_colour(nodes, links, coords, case, rng)
            base.inputs["Roughness"].default_value = float(rng.uniform(0.3, 0.5))
            base.inputs["Coat Weight"].default_value = float(0.6 * (1 - case.wear))
            base.inputs["Coat Roughness"].default_value = float(rng.uniform(0.05, 0.2))
            end_grain = 0.55
        else:
            colour = self._aluminium(nodes, links, coords, base, rng)
            end_grain = 0.8
        darker = nodes.new("ShaderNodeMix")
        darker.data_type = "RGBA"
        darker.blend_type = "MULTIPLY"
        darker.inputs["B"].default_value = (end_grain, end_grain * 0.95, end_grain * 0.9, 1)
        links.new(inside, darker.inputs["Factor"])
        links.new(colour, darker.inputs["A"])
        links.new(darker.outputs["Result"], base.inputs["Base Color"])
        links.new(base.outputs["BSDF"], mix.inputs[1])
        links.new(paint.outputs["BSDF"], mix.inputs[2])
        links.new(mix.outputs["Shader"], out.inputs["Surface"])
        return material

    @staticmethod
    def _wood_colour(nodes: Any, links: Any, coords: Any, case: CyclesCase,
                     rng: np.random.Generator) -> Any:
        """Growth rings along x, distorted, with fibres: a colour socket."""
        light = WOOD_PALE[0] * (1 - case.wood_tone) + WOOD_DARK[0] * case.wood_tone
        dark = WOOD_PALE[1] * (1 - case.wood_tone) + WOOD_DARK[1] * case.wood_tone
        wave = nodes.new("ShaderNodeTexWave")
        wave.wave_type, wave.bands_direction = "BANDS", "Y"
        wave.inputs["Scale"].default_value = float(rng.uniform(60, 140))
        wave.inputs["Distortion"].default_value = float(rng.uniform(4, 12))
        wave.inputs["Detail"].default_value = 3.0
        wave.inputs["Detail Scale"].default_value = float(rng.uniform(0.5, 2))
        shift = nodes.new("ShaderNodeMapping")
        shift.inputs["Location"].default_value = tuple(float(v) for v in rng.uniform(-5, 5, 3))
        links.new(coords.outputs["Object"], shift.inputs["Vector"])
        links.new(shift.outputs["Vector"], wave.inputs["Vector"])
        fibres = nodes.new("ShaderNodeTexNoise")
        stretch = nodes.new("ShaderNodeMapping")
        stretch.inputs["Scale"].default_value = (3.0, 400.0, 1.0)
        links.new(shift.outputs["Vector"], stretch.inputs["Vector"])
        links.new(stretch.outputs["Vector"], fibres.inputs["Vector"])
        fibres.inputs["Scale"].default_value = 1.0
        ramp = nodes.new("ShaderNodeValToRGB")
        ramp.color_ramp.elements[0].color = (*light, 1)
        ramp.color_ramp.elements[1].color = (*dark, 1)
        mix = _math(nodes, links, "ADD", _math(nodes, links, "MULTIPLY", wave.outputs["Fac"],
                                               0.7),
                    _math(nodes, links, "MULTIPLY", fibres.outputs["Fac"], 0.35))
        links.new(_math(nodes, links, "SUBTRACT", mix, 0.1, clamp=True), ramp.inputs["Fac"])
        return ramp.outputs["Color"]

    @staticmethod
    def _aluminium(nodes: Any, links: Any, coords: Any, base: Any,
                   rng: np.random.Generator) -> Any:
        """Brushed metal: streaks along x in the roughness; returns its colour socket."""
        base.inputs["Metallic"].default_value = 1.0
        streaks = nodes.new("ShaderNodeTexNoise")
        stretch = nodes.new("ShaderNodeMapping")
        stretch.inputs["Scale"].default_value = (4.0, 900.0, 1.0)
        links.new(coords.outputs["Object"], stretch.inputs["Vector"])
        links.new(stretch.outputs["Vector"], streaks.inputs["Vector"])
        rough = float(rng.uniform(0.3, 0.5))
        links.new(_math(nodes, links, "ADD", _math(nodes, links, "MULTIPLY",
                                                   streaks.outputs["Fac"], 0.2), rough - 0.1),
                  base.inputs["Roughness"])
        tone = float(rng.uniform(0.6, 0.85))
        rgb = nodes.new("ShaderNodeRGB")
        rgb.outputs["Color"].default_value = (tone, tone * 0.995, tone * 0.985, 1)
        return rgb.outputs["Color"]

    def _camera(self, profile: BoardProfile, case: CyclesCase) -> Any:
        data = bpy.data.cameras.new("camera")
        data.sensor_fit, data.sensor_width = "HORIZONTAL", 36.0
        camera = self._link(bpy.data.objects.new("camera", data))
        yaw, tilt = math.radians(case.yaw_deg), math.radians(case.tilt_deg)
        h = case.camera_height_mm
        camera.location = _vec(h * math.tan(tilt) * math.cos(yaw),
                               h * math.tan(tilt) * math.sin(yaw), h)
        aim = Vector((0, 0, 0)) - camera.location
        roll = Matrix.Rotation(math.radians(case.yaw_deg), 4, "Z")  # the image's turn
        camera.rotation_euler = (aim.to_track_quat("-Z", "Y").to_matrix().to_4x4()
                                 @ roll).to_euler()
        self.scene.camera = camera
        data.lens = 30.0
        bpy.context.view_layer.update()
        half = np.array(profile.board_mm) / 2
        corners = [(sx * half[0], sy * half[1]) for sx in (-1, 1) for sy in (-1, 1)]
        pixels = self.project([(x, y, 0.0) for x, y in corners], camera)
        centre = np.array([case.width, case.height]) / 2
        reach = np.abs(pixels - centre).max()
        data.lens = 30.0 * case.board_fill * min(case.width, case.height) / 2 / reach
        bpy.context.view_layer.update()
        return camera

    def _marble_mesh(self, colour: str) -> Any:
        bm = bmesh.new()
        bmesh.ops.create_uvsphere(bm, u_segments=48, v_segments=24,
                                  radius=self.profile.marble_diameter_mm / 2 * MM)
        for face in bm.faces:
            face.smooth = True
        mesh = bpy.data.meshes.new(f"marble-{colour}")
        bm.to_mesh(mesh)
        bm.free()
        mesh.materials.append(_marble_material(colour))
        return mesh

    # ---- what differs between the frames -------------------------------------------------

    def set_frame(self, occupancy: Mapping[str, str | None], lamps: Iterable[Lamp],
                  hands: Iterable[Hand], things: Iterable[Thing],
                  leds: Mapping[str, tuple[float, float, float]]) -> None:
        """Replace marbles, lamps, hands, objects and glowing LEDs by these."""
        for obj in self._frame_objects:
            data = obj.data
            bpy.data.objects.remove(obj, do_unlink=True)
            if isinstance(data, bpy.types.MetaBall):
                bpy.data.metaballs.remove(data)
            elif isinstance(data, bpy.types.Light):
                bpy.data.lights.remove(data)
        self._frame_objects = []
        self.occluders: list[Any] = []
        offsets = self.case.marble_offset_mm
        for hole in self.profile.holes:
            colour = occupancy.get(hole.id)
            if colour:
                dx, dy = offsets.get(hole.id, (0.0, 0.0))
                marble = bpy.data.objects.new(f"m-{hole.id}", self._marble_meshes[colour])
                marble.location = _vec(hole.x + dx, hole.y + dy, self.marble_z_mm)
                self._link(marble, frame=True)
        for index, lamp in enumerate(lamps):
            self._lamp(index, lamp)
        for index, hand in enumerate(hands):
            self.occluders.append(self._hand(index, hand))
        for index, thing in enumerate(things):
            self.occluders += self._thing(index, thing)
        for hole_id, rgb in leds.items():
            self._led(hole_id, rgb)
        bpy.context.view_layer.update()

    def _lamp(self, index: int, lamp: Lamp) -> None:
        kind = "POINT" if lamp.kind == "point" else "AREA"
        data = bpy.data.lights.new(f"lamp{index}", kind)
        data.energy = lamp.watts
        if kind == "POINT":
            data.shadow_soft_size = lamp.size_mm / 2 * MM
        elif lamp.kind == "window":
            data.shape, data.size, data.size_y = "RECTANGLE", lamp.size_mm * MM, 1.2
        else:
            data.shape, data.size = "DISK", lamp.size_mm * MM
        data.use_nodes = True
        nodes = data.node_tree.nodes
        blackbody = nodes.new("ShaderNodeBlackbody")
        blackbody.inputs["Temperature"].default_value = lamp.kelvin
        data.node_tree.links.new(blackbody.outputs["Color"], nodes["Emission"].inputs["Color"])
        obj = self._link(bpy.data.objects.new(f"lamp{index}", data), frame=True)
        obj.location = _vec(lamp.x, lamp.y, lamp.z)
        obj.rotation_euler = (-obj.location).to_track_quat("-Z", "Y").to_euler()

    def _hand(self, index: int, hand: Hand) -> Any:
        """A palm-down hand of metaballs, the index fingertip at the hand's point."""
        ball = bpy.data.metaballs.new(f"hand{index}")
        ball.resolution, ball.render_resolution, ball.threshold = 0.006, 0.0022, 0.6
        size = hand.size
        come = math.radians(hand.from_deg)
        forward = Vector((-math.cos(come), -math.sin(come), 0.0))
        side = Vector((-forward.y, forward.x, 0.0)) * (1 if hand.right else -1)  # thumb side
        up = Vector((0.0, 0.0, 1.0))
        tip = _vec(hand.x, hand.y, hand.height_mm + 7 * size)
        rise = math.radians(18 + 12 * hand.curl)
        knuckle = tip - forward * (72 * MM * size * math.cos(rise)) + up * (
            72 * MM * size * math.sin(rise))

        def capsule(a: Vector, b: Vector, radius_mm: float) -> None:
            element = ball.elements.new(type="CAPSULE")
            element.co = (a + b) / 2
            element.radius = radius_mm * size * MM / METABALL_SURFACE
            element.size_x = max((b - a).length / 2, 1e-4)
            element.rotation = (b - a).to_track_quat("X", "Z")

        def finger(base: Vector, end: Vector, radius_mm: float) -> None:
            middle = base + (end - base) * 0.5 + up * (6 * MM * size)
            capsule(base, middle, radius_mm)
            capsule(middle, end, radius_mm * 0.9)

        finger(knuckle, tip, 8.5)
        curl = hand.curl
        for offset, back, length in ((18, -2, 80), (35, 4, 74), (50, 12, 60)):
            base = knuckle - side * (offset * MM * size) - forward * (back * MM * size)
            reach = length * MM * size
            end = base + forward * (reach * (1 - 0.75 * curl)) - up * (reach * 0.55 * curl)
            end.z = max(end.z, (8 + hand.height_mm * 0.3) * MM)
            finger(base, end, 8.0 - offset / 25)
        palm_centre = knuckle - forward * (42 * MM * size) - side * (24 * MM * size) + up * (
            6 * MM * size)
        thumb_base = palm_centre + side * (30 * MM * size) - forward * (20 * MM * size)
        thumb_tip = knuckle + side * (26 * MM * size) - forward * (8 * MM * size) - up * (
            12 * MM * size)
        thumb_tip.z = max(thumb_tip.z, (8 + hand.height_mm * 0.5) * MM)
        finger(thumb_base, thumb_tip, 10.0)
        palm = ball.elements.new(type="ELLIPSOID")
        palm.co = palm_centre
        palm.radius = 30 * MM * size / METABALL_SURFACE
        palm.size_x, palm.size_y, palm.size_z = 1.45, 1.35, 0.5
        palm.rotation = forward.to_track_quat("X", "Z")
        wrist = palm_centre - forward * (55 * MM * size) + up * (12 * MM * size)
        elbow = wrist - forward * (260 * MM * size) + up * (170 * MM * size)
        capsule(wrist, elbow, 27.0)
        obj = self._link(bpy.data.objects.new(f"hand{index}", ball), frame=True)
        tone = SKIN_LIGHT * (1 - hand.tone) + SKIN_DARK * hand.tone
        skin = _principled(f"skin{index}", tuple(tone), roughness=0.45)
        bsdf = skin.node_tree.nodes["Principled BSDF"]
        bsdf.inputs["Subsurface Weight"].default_value = 0.25
        bsdf.inputs["Subsurface Radius"].default_value = (1.0, 0.35, 0.2)
        bsdf.inputs["Subsurface Scale"].default_value = 0.003
        ball.materials.append(skin)
        return obj

    def _thing(self, index: int, thing: Thing) -> list[Any]:
        turn = Matrix.Rotation(math.radians(thing.angle_deg), 4, "Z")
        place = Matrix.Translation(_vec(thing.x, thing.y, 0.0)) @ turn
        if thing.kind == "mug":
            return self._mug(index, thing, place)
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.scale(bm, vec=(PHONE_MM[0] * MM, PHONE_MM[1] * MM, 8 * MM), verts=bm.verts)
        bmesh.ops.transform(bm, matrix=place @ Matrix.Translation((0, 0, 4 * MM)),
                            verts=bm.verts)
        glass = _principled(f"phone{index}", thing.rgb, roughness=0.05)
        glass.node_tree.nodes["Principled BSDF"].inputs["Coat Weight"].default_value = 1.0
        phone = self._mesh_object(f"phone{index}", bm, glass, frame=True)
        bevel = phone.modifiers.new("round", "BEVEL")
        bevel.width, bevel.segments = 3.5 * MM, 4
        return [phone]

    def _mug(self, index: int, thing: Thing, place: Matrix) -> list[Any]:
        height, radius = 95 * MM, MUG_RADIUS_MM * MM
        ceramic = _principled(f"mug{index}", thing.rgb, roughness=0.15)
        ceramic.node_tree.nodes["Principled BSDF"].inputs["Coat Weight"].default_value = 0.6
        bm = bmesh.new()
        bmesh.ops.create_cone(bm, cap_ends=True, segments=64, radius1=radius, radius2=radius,
                              depth=height, matrix=place @ Matrix.Translation((0, 0, height / 2)))
        body = self._mesh_object(f"mug{index}", bm, ceramic, frame=True, smooth=True)
        bm = bmesh.new()
        bmesh.ops.create_cone(bm, cap_ends=True, segments=64, radius1=radius - 4 * MM,
                              radius2=radius - 4 * MM, depth=1 * MM,
                              matrix=place @ Matrix.Translation((0, 0, height - 6 * MM)))
        coffee = self._mesh_object(f"coffee{index}", bm,
                                   _principled(f"coffee{index}", (0.03, 0.015, 0.008), 0.05),
                                   frame=True)
        bm = bmesh.new()
        _torus(bm, 24 * MM, 6 * MM, place @ Matrix.Translation((radius + 14 * MM, 0, height / 2))
               @ Matrix.Rotation(math.pi / 2, 4, "X"))
        handle = self._mesh_object(f"handle{index}", bm, ceramic, frame=True, smooth=True)
        return [body, coffee, handle]

    def _led(self, hole_id: str, rgb: tuple[float, float, float]) -> None:
        hole = self.profile.hole(hole_id)
        bm = bmesh.new()
        bmesh.ops.create_cone(bm, cap_ends=True, segments=16, radius1=2.5 * MM, radius2=2.5 * MM,
                              depth=0.2 * MM,
                              matrix=Matrix.Translation(_vec(hole.x, hole.y,
                                                             0.3 - DIMPLE_DEPTH_MM)))
        material = bpy.data.materials.new(f"led-{hole_id}")
        material.use_nodes = True
        nodes = material.node_tree.nodes
        nodes.remove(nodes["Principled BSDF"])
        emission = nodes.new("ShaderNodeEmission")
        emission.inputs["Color"].default_value = (*rgb, 1)
        emission.inputs["Strength"].default_value = 40.0
        material.node_tree.links.new(emission.outputs["Emission"],
                                     nodes["Material Output"].inputs["Surface"])
        self._mesh_object(f"led-{hole_id}", bm, material, frame=True)

    # ---- rendering and truth -------------------------------------------------------------

    def render(self) -> np.ndarray:
        """The frame in linear RGB, (H, W, 4) float32 (alpha last), top row first."""
        path = os.path.join(self.tmp, "frame.exr")
        self.scene.render.filepath = path
        with _quiet():
            bpy.ops.render.render(write_still=True)
        image = bpy.data.images.load(path)
        pixels = np.empty(image.size[0] * image.size[1] * 4, np.float32)
        image.pixels.foreach_get(pixels)
        bpy.data.images.remove(image)
        os.remove(path)
        return pixels.reshape(self.case.height, self.case.width, 4)[::-1].copy()

    def project(self, points_mm: Iterable[tuple[float, float, float]],
                camera: Any | None = None) -> np.ndarray:
        """Pixel coordinates (x right, y down; pixel centres at integers) of board points."""
        camera = camera or self.camera
        width, height = self.case.width, self.case.height
        out = []
        for x, y, z in points_mm:
            ndc = world_to_camera_view(self.scene, camera, _vec(x, y, z))
            out.append((ndc.x * width - 0.5, (1 - ndc.y) * height - 0.5))
        return np.array(out)

    def homography(self) -> np.ndarray:
        """3x3 matrix mapping board mm (x, y, 1) on the surface to pixels."""
        half = np.array(self.profile.board_mm) / 2
        grid = [(x, y) for x in np.linspace(-half[0], half[0], 5)
                for y in np.linspace(-half[1], half[1], 5)]
        pixels = self.project([(x, y, 0.0) for x, y in grid])
        matrix, _ = cv2.findHomography(np.array(grid, np.float64), pixels)
        return np.asarray(matrix / matrix[2, 2])

    def board_mask(self) -> np.ndarray:
        """Where the board lies in the frame."""
        half = np.array(self.profile.board_mm) / 2
        corners = self.project([(-half[0], -half[1], 0), (half[0], -half[1], 0),
                                (half[0], half[1], 0), (-half[0], half[1], 0)])
        mask = np.zeros((self.case.height, self.case.width), np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
        return mask.astype(bool)

    def cover(self) -> dict[str, float]:
        """Per hole a hand or object hides any of, the share of its marble's circle hidden
        (everything but the hands and objects held out: the frame's alpha is their cover)."""
        held = [obj for obj in self.scene.objects if obj.type in ("MESH", "META")
                and obj not in self.occluders]
        cy = self.scene.cycles
        kept = (cy.samples, cy.use_denoising, cy.use_adaptive_sampling)
        for obj in held:
            obj.is_holdout = True
        self.scene.render.film_transparent = True
        cy.samples, cy.use_denoising, cy.use_adaptive_sampling = COVER_SAMPLES, False, False
        try:
            alpha = self.render()[..., 3]
        finally:
            for obj in held:
                obj.is_holdout = False
            self.scene.render.film_transparent = False
            cy.samples, cy.use_denoising, cy.use_adaptive_sampling = kept
        radius = max(self.profile.hole_diameter_mm, self.profile.marble_diameter_mm) / 2 + 1
        rings = [(0.0, 0.0)] + [(r * math.cos(a), r * math.sin(a))
                                for r, n in ((radius / 3, 6), (2 * radius / 3, 12), (radius, 18))
                                for a in np.linspace(0, 2 * math.pi, n, endpoint=False)]
        shares = {}
        for hole in self.profile.holes:
            pixels = self.project([(hole.x + dx, hole.y + dy, self.marble_z_mm)
                                   for dx, dy in rings])
            cols = np.clip(np.round(pixels[:, 0]).astype(int), 0, self.case.width - 1)
            rows = np.clip(np.round(pixels[:, 1]).astype(int), 0, self.case.height - 1)
            share = float((alpha[rows, cols] > 0.5).mean())
            if share > 0:
                shares[hole.id] = round(share, 3)
        return shares

    def close(self) -> None:
        """Remove the temporary files."""
        shutil.rmtree(self.tmp, ignore_errors=True)


@contextmanager
def _quiet() -> Iterator[None]:
    """Blender's progress lines (on the process's stdout) go nowhere meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "wb") as devnull:
        os.dup2(devnull.fileno(), 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _principled(name: str, rgb: Iterable[float], roughness: float) -> Any:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*rgb, 1)
    bsdf.inputs["Roughness"].default_value = roughness
    return material


def _marble_material(colour: str) -> Any:
    """Coloured glass; white is milky glass, black nearly opaque dark glass."""
    if colour == "white":
        material = _principled("glass-white", (0.85, 0.85, 0.83), roughness=0.08)
        bsdf = material.node_tree.nodes["Principled BSDF"]
        bsdf.inputs["Subsurface Weight"].default_value = 0.6
        bsdf.inputs["Subsurface Scale"].default_value = 0.002
        bsdf.inputs["Coat Weight"].default_value = 1.0
        return material
    if colour == "black":
        material = _principled("glass-black", (0.012, 0.012, 0.014), roughness=0.03)
        material.node_tree.nodes["Principled BSDF"].inputs["Coat Weight"].default_value = 1.0
        return material
    material = _principled(f"glass-{colour}", GLASS_RGB[colour], roughness=0.01)
    bsdf = material.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Transmission Weight"].default_value = 1.0
    bsdf.inputs["IOR"].default_value = 1.52
    return material


def _math(nodes: Any, links: Any, operation: str, a: Any, b: Any, clamp: bool = False) -> Any:
    """A Math node's output: `a` `operation` `b` (sockets or numbers)."""
    node = nodes.new("ShaderNodeMath")
    node.operation, node.use_clamp = operation, clamp
    for socket, value in zip(node.inputs[:2], (a, b), strict=True):
        if isinstance(value, (int, float)):
            socket.default_value = value
        else:
            links.new(value, socket)
    return node.outputs["Value"]


def _torus(bm: Any, major: float, minor: float, matrix: Matrix, rings: int = 32,
           sides: int = 12) -> None:
    """A torus around local z into `bm`."""
    verts = []
    for i in range(rings):
        u = 2 * math.pi * i / rings
        for j in range(sides):
            v = 2 * math.pi * j / sides
            r = major + minor * math.cos(v)
            point = matrix @ Vector((r * math.cos(u), r * math.sin(u), minor * math.sin(v)))
            verts.append(bm.verts.new(point))
    for i in range(rings):
        for j in range(sides):
            a = i * sides + j
            b = ((i + 1) % rings) * sides + j
            c = ((i + 1) % rings) * sides + (j + 1) % sides
            d = i * sides + (j + 1) % sides
            bm.faces.new((verts[a], verts[b], verts[c], verts[d]))
