"""The live web view: a page for the TV and the phones, served by the host (docs/web.md)."""
