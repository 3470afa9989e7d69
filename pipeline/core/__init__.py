"""The shared core of the per-talk stages and the library layer: settings, the work folder
(store), errors, fingerprints and code versions (source), prompts, models, text and
terminology helpers, grounding and fidelity checks. No stage of its own."""
