"""Prompt templates, one YAML file per use (read by pipeline.core.prompts.load_prompt)."""
