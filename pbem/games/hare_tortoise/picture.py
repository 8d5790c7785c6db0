"""The Hare & Tortoise board picture (being moved here from pbem.render.board)."""

from pbem.render.board import MoveMark, RunnerMark, SquareInfo, board_png_layers, board_svg

__all__ = ["MoveMark", "RunnerMark", "SquareInfo", "board_png_layers", "board_svg"]
