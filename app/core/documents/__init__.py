"""Documents attached to chat messages: read once (:mod:`.extract`), kept by content
(:mod:`.store`), split into passages and indexed for retrieval (:mod:`.passages`, :mod:`.index`),
and put into the prompt whole or as the passages that answer the question (:mod:`.grounding`)."""
