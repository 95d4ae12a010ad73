"""Run on text's controller (requests, state) and figures (views, read-outs); ui/docks/run.py is the glue."""
