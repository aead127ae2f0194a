package dev.gram.index;

/**
 * A candidate hit: the best Lucene document of one entity ({@code key} is path#id), its score in
 * the ranking it came from, and its cosine to the query when that ranking was semantic.
 */
record Candidate(int doc, float score, String key, Float cosine) {}
