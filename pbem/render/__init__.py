"""Pictures without a game: SVG building blocks (`svg`) and SVG to PNG (`png`).

Each game draws its own board with these, in its own package; nothing here knows a game.
"""
