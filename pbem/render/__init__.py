"""Pictures for turn reports: pure functions from plain data to SVG, and SVG to PNG."""
