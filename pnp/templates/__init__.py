"""The expressions and templates a game is written in (`{{ title }}`, `when:`, rules'
`expect:`): the names they see (expressions), the sandboxed Jinja environment (sandbox,
the one home of Jinja's internals) and plural forms (plurals)."""
