"""Evidence units with exact spans: anchored context, cross-references, small-to-big (pure)."""
