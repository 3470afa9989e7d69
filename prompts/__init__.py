"""Prompt templates, one YAML file per use (read by pipeline.prompts.load_prompt)."""
