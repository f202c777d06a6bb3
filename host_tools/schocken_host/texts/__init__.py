"""The host's texts, one module per area: each holds ``TEXTS = {key: (German, English)}``, the key led by its
area ("plain.turn", "doctor.connect"). i18n.py gathers them and is the one lookup (``tr``)."""
