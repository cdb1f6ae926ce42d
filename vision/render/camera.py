"""Pinhole camera above a board: where it sits and how board millimetres map to image pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    """A posed pinhole camera: `homography` maps board mm (x, y, 1) on the plane z = 0 to pixels.

    `position` is the centre of projection in board mm (z up, above the board).
    """

    homography: np.ndarray
    position: np.ndarray

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Image pixels of board-plane points, an (N, 2) array in and out."""
        return apply_homography(self.homography, points_mm)

    def project_raised(self, points_mm: np.ndarray, height_mm: float) -> np.ndarray:
        """Board-plane points where the camera sees points lifted `height_mm` above `points_mm`.

        Drawing a raised object (a marble's body, a hand) at these board positions reproduces its
        parallax: things above the board appear pushed away from the camera's foot point.
        """
        foot = self.position[:2]
        lift = self.position[2] / (self.position[2] - height_mm)
        return np.asarray(foot + (np.asarray(points_mm, dtype=np.float64) - foot) * lift)

    def pixels_per_mm(self, point_mm: tuple[float, float]) -> float:
        """Local image scale around a board point (mean of the two axis scales)."""
        x, y = point_mm
        ends = self.project(np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
        return float((np.linalg.norm(ends[1] - ends[0]) + np.linalg.norm(ends[2] - ends[0])) / 2)


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a 3x3 homography."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.c_[points, np.ones(len(points))] @ homography.T
    return np.asarray(mapped[:, :2] / mapped[:, 2:3])


def camera_rotation(tilt_deg: float, yaw_deg: float) -> np.ndarray:
    """Camera-to-world rotation: looking straight down, tilted about its x axis, turned about z.

    Camera axes follow OpenCV (x right, y down, z forward); with no tilt and no yaw the image's
    right is the board's +x and the image's up is the board's +y.
    """
    down = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    t, y = math.radians(tilt_deg), math.radians(yaw_deg)
    tilt = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(t), -math.sin(t)],
                     [0.0, math.sin(t), math.cos(t)]])
    yaw = np.array([[math.cos(y), -math.sin(y), 0.0], [math.sin(y), math.cos(y), 0.0],
                    [0.0, 0.0, 1.0]])
    return np.asarray(yaw @ down @ tilt)


def pose_camera(board_mm: tuple[float, float], image_size: tuple[int, int], *,
                height_mm: float, tilt_deg: float, yaw_deg: float,
                aim_mm: tuple[float, float], board_fill: float) -> Camera:
    """Place a camera `height_mm` above the board, its optical axis through `aim_mm`.

    The focal length is chosen so the whole board covers `board_fill` of the frame's tighter side.
    """
    to_world = camera_rotation(tilt_deg, yaw_deg)
    axis = to_world[:, 2]
    aim = np.array([aim_mm[0], aim_mm[1], 0.0])
    position = aim + axis * (height_mm / axis[2])
    to_camera = to_world.T
    plane = np.c_[to_camera[:, 0], to_camera[:, 1], -to_camera @ position]
    half_w, half_h = board_mm[0] / 2, board_mm[1] / 2
    corners = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    normalised = apply_homography(plane, corners)
    width, height = image_size
    reach = np.abs(normalised).max(axis=0)
    focal = board_fill * min(width / 2 / reach[0], height / 2 / reach[1])
    intrinsics = np.array([[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2],
                           [0.0, 0.0, 1.0]])
    return Camera(homography=intrinsics @ plane, position=position)
