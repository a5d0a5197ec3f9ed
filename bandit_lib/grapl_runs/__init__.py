"""The computations behind the GRAPL20 chapter's experiments (one module per experiment)."""
