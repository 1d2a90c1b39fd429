"""The conformance suite (issue 34): one set of engine-contract tests run over every game of
the registry (docs/contract.md), so that a newly registered game gets them all."""
