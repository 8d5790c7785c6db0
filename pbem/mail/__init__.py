"""Inbound mail: from raw bytes to the text a player wrote."""
