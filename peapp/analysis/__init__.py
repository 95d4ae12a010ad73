"""Analyses over encodings: similarity, shift maps, spectra, level-of-detail views. No Qt."""
