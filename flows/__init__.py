"""Thin Prefect flows over the `pipeline` library."""
