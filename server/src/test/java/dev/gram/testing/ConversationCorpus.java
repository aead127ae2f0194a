package dev.gram.testing;

import dev.gram.testing.ConversationFacts.Kind;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Long multi-session conversations between two people, and the questions an agent asks about them
 * later with the turns that answer them: a recall evaluation of the shape of public agent-memory
 * benchmarks, generated deterministically from a seed (nothing downloaded).
 *
 * <p>What makes it hard, on purpose: every session is full of small talk that names both people
 * and uses the same everyday words ("kids", "last weekend", "work"); the listener answers each
 * piece of news with the same topic words but no answer; later sessions call back to earlier news;
 * relative dates ("last Saturday") appear in news and small talk alike; and questions paraphrase
 * the turn that answers them ("When did Ana get a dog?" for "we brought home a puppy from the
 * shelter"). Question kinds: {@code single} (one fact), {@code detail} (the follow-up turn),
 * {@code temporal} ("when did …", answered by a turn dated by its session), {@code multihop} (two
 * turns of different sessions) and {@code inference} (the turn answers only by implication).
 *
 * <p>A {@link Style} varies what is not content (how titles are cut, how questions are worded) so
 * that a ranking is not tuned to one rendering.
 */
public final class ConversationCorpus {
  public record Turn(String id, String speaker, String text) {}

  public record Session(int number, LocalDate date, List<Turn> turns) {}

  public record Conversation(String id, String a, String b, List<Session> sessions) {
    public int turns() {
      return sessions.stream().mapToInt(s -> s.turns().size()).sum();
    }
  }

  public record Question(String conversation, String kind, String text, List<String> evidence, String answer) {}

  public record Corpus(List<Conversation> conversations, List<Question> questions) {
    public int turns() {
      return conversations.stream().mapToInt(Conversation::turns).sum();
    }

    public int sessions() {
      return conversations.stream().mapToInt(c -> c.sessions().size()).sum();
    }
  }

  /**
   * How turns become titles and how questions read. {@code titleWords}: words of the turn after the
   * speaker's name in a record's title; {@code plainQuestions}: questions without a question mark
   * and in lower case, as some agents type them.
   */
  public record Style(String name, int titleWords, boolean plainQuestions) {
    public static final Style DEFAULT = new Style("default", 8, false);
    public static final Style TERSE = new Style("terse", 4, true);
  }

  private static final String[] NAMES = {
    "Caroline", "Melanie", "Jon", "Gina", "Andrew", "Audrey", "Tim", "John", "Maria", "Joanna", "Nate", "Evan",
    "Sam", "Calvin", "Dave", "Deborah", "Jolene", "James", "Priya", "Tomas"
  };

  private static final String[] SESSION_TIMES = {"10:04 am", "1:56 pm", "7:30 pm", "4:12 pm", "8:45 am", "9:20 pm"};

  private ConversationCorpus() {}

  /** {@code conversations} conversations of {@code sessions} sessions each, from {@code seed}. */
  public static Corpus generate(long seed, int conversations, int sessions, Style style) {
    Random rnd = new Random(seed);
    List<Conversation> convs = new ArrayList<>();
    List<Question> questions = new ArrayList<>();
    List<String> names = new ArrayList<>(List.of(NAMES));
    Collections.shuffle(names, rnd);
    for (int c = 0; c < conversations; c++) {
      String a = names.get((2 * c) % names.size());
      String b = names.get((2 * c + 1) % names.size());
      if (a.equals(b)) {
        b = names.get((2 * c + 3) % names.size());
      }
      new Builder(rnd, "conv-" + (c + 1), a, b, sessions, style).build(convs, questions);
    }
    return new Corpus(convs, questions);
  }

  /** One told fact: what was drawn for it and the turns that tell it. */
  private record Told(Kind kind, String teller, Map<String, String[]> values, String statementId, String detailId,
      LocalDate when, String whenPhrase) {}

  private static final class Builder {
    private final Random rnd;
    private final String id;
    private final String a;
    private final String b;
    private final int sessions;
    private final Style style;
    private final List<Told> told = new ArrayList<>();

    Builder(Random rnd, String id, String a, String b, int sessions, Style style) {
      this.rnd = rnd;
      this.id = id;
      this.a = a;
      this.b = b;
      this.sessions = sessions;
      this.style = style;
    }

    void build(List<Conversation> convs, List<Question> questions) {
      // Each person gets most kinds once, some twice (a second trip, a second pet), in random order.
      List<Object[]> plan = new ArrayList<>();
      for (String person : List.of(a, b)) {
        List<Kind> kinds = new ArrayList<>(ConversationFacts.KINDS);
        Collections.shuffle(kinds, rnd);
        int n = Math.min(kinds.size(), Math.max(6, sessions * 3 / 5));
        for (int i = 0; i < n; i++) {
          plan.add(new Object[] {person, kinds.get(i)});
          if (rnd.nextInt(5) == 0) {
            plan.add(new Object[] {person, kinds.get(i)});
          }
        }
      }
      Collections.shuffle(plan, rnd);
      List<Session> out = new ArrayList<>();
      LocalDate date = LocalDate.of(2023, 1 + rnd.nextInt(4), 1 + rnd.nextInt(27));
      int p = 0;
      for (int s = 1; s <= sessions; s++) {
        int facts = (plan.size() - p) / Math.max(1, sessions - s + 1) + (rnd.nextInt(3) == 0 ? 1 : 0);
        List<Object[]> here = plan.subList(p, Math.min(plan.size(), p + Math.max(1, facts)));
        p += here.size();
        out.add(session(s, date, here));
        date = date.plusDays(3 + rnd.nextInt(20));
      }
      convs.add(new Conversation(id, a, b, out));
      questions.addAll(questions());
    }

    private Session session(int number, LocalDate date, List<Object[]> facts) {
      List<Turn> turns = new ArrayList<>();
      String first = rnd.nextBoolean() ? a : b;
      String second = other(first);
      say(turns, number, first, pick(ConversationFacts.OPENERS), first);
      say(turns, number, second, pick(ConversationFacts.OPENER_REPLIES), second);
      // Callbacks to news of earlier sessions: the same topic and name, no new fact.
      if (!told.isEmpty() && rnd.nextInt(3) > 0) {
        Told old = told.get(rnd.nextInt(told.size()));
        String asker = other(old.teller());
        say(turns, number, asker, pick(ConversationFacts.CALLBACKS).replace("{key}", old.kind().key()), asker);
        say(turns, number, old.teller(), topical(old), old.teller());
      }
      for (Object[] f : facts) {
        tell(turns, number, date, (String) f[0], (Kind) f[1]);
        int chat = rnd.nextInt(4);
        for (int i = 0; i < chat; i++) {
          String who = i % 2 == 0 ? first : second;
          say(turns, number, who, pick(ConversationFacts.SMALL_TALK), who);
        }
      }
      while (turns.size() < 18 + rnd.nextInt(10)) {
        String who = turns.size() % 2 == 0 ? first : second;
        say(turns, number, who, pick(ConversationFacts.SMALL_TALK), who);
      }
      say(turns, number, first, pick(ConversationFacts.CLOSERS), first);
      say(turns, number, second, pick(ConversationFacts.CLOSER_REPLIES), second);
      return new Session(number, date, turns);
    }

    /** A reply about earlier news that repeats its words but tells nothing new. */
    private String topical(Told old) {
      return pick(ConversationFacts.CALLBACK_REPLIES) + " The " + old.kind().key() + " was " + old.whenPhrase()
          + " and I'm still talking about it.";
    }

    private void tell(List<Turn> turns, int session, LocalDate date, String teller, Kind kind) {
      Map<String, String[]> values = new LinkedHashMap<>();
      kind.slots().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> {
            String v = e.getValue().get(rnd.nextInt(e.getValue().size()));
            String[] parts = v.split("\\|");
            values.put(e.getKey(), new String[] {parts[0], parts.length > 1 ? parts[1] : parts[0]});
          });
      Relative rel = Relative.pick(rnd, date);
      String listener = other(teller);
      String statement = fill(pick(kind.statements()), teller, listener, values, rel.phrase());
      String statementId = say(turns, session, teller, statement, null);
      say(turns, session, listener, fill(pick(kind.reactions()), teller, listener, values, rel.phrase()), null);
      String detailId = null;
      if (!kind.details().isEmpty()) {
        detailId = say(turns, session, teller, fill(pick(kind.details()), teller, listener, values, rel.phrase()), null);
      }
      told.add(new Told(kind, teller, values, statementId, detailId, rel.date(), rel.phrase()));
    }

    private List<Question> questions() {
      List<Question> out = new ArrayList<>();
      Map<String, List<Told>> byCategory = new HashMap<>();
      for (Told t : told) {
        Kind k = t.kind();
        String o = other(t.teller());
        out.add(question("single", fill(pick(k.single()), t.teller(), o, t.values(), ""), List.of(t.statementId()),
            t.values().values().iterator().next()[0]));
        if (!k.temporal().isEmpty() && rnd.nextInt(10) < 7) {
          out.add(question("temporal", fill(pick(k.temporal()), t.teller(), o, t.values(), ""), List.of(t.statementId()),
              t.when().format(DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH))));
        }
        if (t.detailId() != null && !k.detail().isEmpty() && rnd.nextBoolean()) {
          out.add(question("detail", fill(pick(k.detail()), t.teller(), o, t.values(), ""), List.of(t.detailId()), ""));
        }
        if (!k.inference().isEmpty() && rnd.nextInt(10) < 4) {
          out.add(question("inference", fill(pick(k.inference()), t.teller(), o, t.values(), ""),
              List.of(t.statementId()), "yes"));
        }
        byCategory.computeIfAbsent(t.teller() + "\u0000" + k.category(), x -> new ArrayList<>()).add(t);
      }
      byCategory.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
        List<Told> ts = e.getValue();
        if (ts.size() >= 2) {
          Told x = ts.get(0);
          Told y = ts.get(ts.size() - 1);
          String q = ConversationFacts.CATEGORY_QUESTIONS.get(x.kind().category()).replace("{P}", x.teller());
          out.add(question("multihop", q, List.of(x.statementId(), y.statementId()), ""));
        }
      });
      return out;
    }

    private Question question(String kind, String text, List<String> evidence, String answer) {
      String q = text;
      if (style.plainQuestions()) {
        q = q.replace("?", "").toLowerCase(Locale.ROOT);
      }
      return new Question(id, kind, q, evidence, answer);
    }

    private String say(List<Turn> turns, int session, String speaker, String template, String self) {
      String text = self == null ? template : fill(template, speaker, other(speaker), Map.of(), "");
      String turnId = "D" + session + ":" + (turns.size() + 1);
      turns.add(new Turn(turnId, speaker, text));
      return turnId;
    }

    private String other(String person) {
      return person.equals(a) ? b : a;
    }

    private <T> T pick(List<T> list) {
      return list.get(rnd.nextInt(list.size()));
    }
  }

  private static final Pattern SLOT = Pattern.compile("\\{(\\w+)(~?)}");

  /** Fills a template: {P}, {O}, {when}, slots as told ({x}) or as asked ({x~}); capitalized. */
  static String fill(String template, String teller, String listener, Map<String, String[]> values, String when) {
    // In a turn, {O} is whom the speaker talks to; the teller is the speaker.
    Matcher m = SLOT.matcher(template);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String key = m.group(1);
      String v = switch (key) {
        case "P" -> teller;
        case "O" -> listener;
        case "when" -> when;
        default -> {
          String[] val = values.get(key);
          yield val == null ? key : val[m.group(2).isEmpty() ? 0 : 1];
        }
      };
      m.appendReplacement(sb, Matcher.quoteReplacement(v));
    }
    m.appendTail(sb);
    String s = sb.toString().replaceAll("\\s+", " ").strip();
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** A date said relative to the session's ("last Saturday"), and the day it means. */
  record Relative(String phrase, LocalDate date) {
    static Relative pick(Random rnd, LocalDate session) {
      switch (rnd.nextInt(9)) {
        case 0:
          return new Relative("yesterday", session.minusDays(1));
        case 1:
          return new Relative("two days ago", session.minusDays(2));
        case 2:
          return new Relative("last week", session.minusWeeks(1));
        case 3:
          return new Relative("this morning", session);
        case 4:
          return new Relative("a couple of weeks ago", session.minusWeeks(2));
        case 5:
          return new Relative("last month", session.minusMonths(1));
        default:
          {
            DayOfWeek d = DayOfWeek.of(1 + rnd.nextInt(7));
            LocalDate x = session.minusDays(1);
            while (x.getDayOfWeek() != d) {
              x = x.minusDays(1);
            }
            String name = d.getDisplayName(java.time.format.TextStyle.FULL, Locale.ENGLISH);
            return new Relative("last " + name, x);
          }
      }
    }
  }

  /** The record title of a turn: the speaker and the start of what was said. */
  public static String title(Turn t, Style style) {
    String[] words = t.text().split("\\s+");
    StringBuilder sb = new StringBuilder(t.speaker()).append(": ");
    for (int i = 0; i < Math.min(style.titleWords(), words.length); i++) {
      sb.append(i == 0 ? "" : " ").append(words[i]);
    }
    return words.length > style.titleWords() ? sb.append("…").toString() : sb.toString();
  }

  /**
   * The arguments of the {@code gram_create} that stores a session as an agent would: one document
   * per session in the conversation's folder, one {@code event} record per turn (title: the speaker
   * and the start of the turn; {@code d}: the whole turn; {@code owner}: the speaker; {@code at}:
   * the session's date).
   */
  public static JsonObject createArguments(Conversation c, Session s, Style style) {
    JsonArray records = new JsonArray();
    String at = s.date().toString();
    for (Turn t : s.turns()) {
      JsonObject fields = new JsonObject()
          .put("t", new JsonArray().add(title(t, style)))
          .put("d", new JsonArray().add(t.text()))
          .put("owner", new JsonArray().add(t.speaker()))
          .put("at", new JsonArray().add(at));
      records.add(new JsonObject().put("type", "event").put("id", t.id()).put("fields", fields));
    }
    String date = s.date().format(DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH));
    String time = SESSION_TIMES[s.number() % SESSION_TIMES.length];
    return new JsonObject()
        .put("path", path(c, s))
        .put("base_revision", (Object) null)
        .put("title", c.a() + " and " + c.b() + ", session " + s.number() + " (" + time + " on " + date + ")")
        .put("content", new JsonObject().put("records", records));
  }

  public static String path(Conversation c, Session s) {
    return c.id() + "/session-" + (s.number() < 10 ? "0" : "") + s.number() + ".gram";
  }
}
