"""Probes' controller (the request cycle's state) and figures (views, captions, read-outs); ui/docks/probe.py is the glue."""
