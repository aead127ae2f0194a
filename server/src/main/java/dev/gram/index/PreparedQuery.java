package dev.gram.index;

import java.io.IOException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;

/**
 * A query built for one searcher with every leaf that needed rewriting already rewritten by it, so
 * that the searcher need not rewrite the whole tree again.
 *
 * <p>{@code IndexSearcher.search} rewrites a query until it stops changing, and a {@code
 * BooleanQuery} rewrites each of its clauses, rebuilds itself when one changed (hashing every
 * clause, deeply, into its clause sets) and then looks for duplicates among them. A keyword
 * recall's tree (a disjunction of words, each the best of six fields, each a word and its stem,
 * with typo expansions, phrases and boosts) went through that several times per search: a JFR
 * profile of the server over stdio put a third of a warm keyword recall's CPU in {@code
 * BooleanQuery.rewrite}. The rewrites that change scoring leaves (typo expansions, phrases, term
 * sets, ranges) are done once when the query is built ({@link #leaf}); what the whole-tree rewrite
 * would do besides (unwrap one-clause queries, flatten nested disjunctions, merge duplicate
 * clauses) changes how the score is computed, never what it is.
 *
 * <p>Equality is identity: a prepared query holds what one searcher found, and is never looked up
 * in a cache.
 */
final class PreparedQuery extends Query {
  private final Query query;

  PreparedQuery(Query query) {
    this.query = query;
  }

  /** The query as built, for a test that searches it the way Lucene would. */
  Query query() {
    return query;
  }

  /** {@code leaf} as {@code searcher} rewrites it (a typo expansion into its terms, for instance). */
  static Query leaf(IndexSearcher searcher, Query leaf) throws IOException {
    return searcher.rewrite(leaf);
  }

  @Override
  public Query rewrite(IndexSearcher searcher) {
    return this;
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
    return query.createWeight(searcher, scoreMode, boost);
  }

  @Override
  public void visit(QueryVisitor visitor) {
    query.visit(visitor);
  }

  @Override
  public String toString(String field) {
    return query.toString(field);
  }

  @Override
  public boolean equals(Object other) {
    return other == this;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
