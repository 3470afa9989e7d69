"""The writing stages: the outline (outline.json) plans chapters over the evidence, the
draft (draft.json) writes them in English and translates them into Chinese."""
