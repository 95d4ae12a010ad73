"""Everything Qt: the main window, docks, view-models and the compute worker.

Arrows point down only: ``ui`` imports ``peapp``; ``peapp`` never imports ``ui``.
"""
