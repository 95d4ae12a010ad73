"""The attention inspector's views that hold no panel state (axes, the reflowing plot strip, captions)."""
