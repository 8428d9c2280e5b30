"""Example workflows (``.ows``) shown under Help → Examples in Orange Canvas."""
