"""The steps of a turn, one module each: legal actions, reasons for refusal, and effects."""
