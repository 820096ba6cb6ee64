package dev.handoff.simulator.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict check that a page is well-formed XML (one root, balanced and properly nested tags,
 * quoted attributes, only the five XML entities or numeric references, no character XML forbids).
 * The simulator module does not read {@code java.xml}, so the tests check with this instead.
 */
final class MarkupCheck {

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][-A-Za-z0-9_:.]*");
  private static final Pattern ATTRIBUTE =
      Pattern.compile("\\s+([A-Za-z_][-A-Za-z0-9_:.]*)=\"([^\"<]*)\"");
  private static final Pattern REFERENCE =
      Pattern.compile("&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);");

  private MarkupCheck() {}

  /** Throws an AssertionError naming the offset and the problem unless the page is well formed. */
  static void assertWellFormed(String page) {
    Deque<String> open = new ArrayDeque<>();
    int roots = 0;
    int i = 0;
    while (i < page.length()) {
      char c = page.charAt(i);
      checkCharacter(page, i);
      if (c == '<') {
        if (page.startsWith("<!DOCTYPE", i)) {
          i = after(page, i, ">");
        } else if (page.startsWith("<!--", i)) {
          i = after(page, i, "-->");
        } else if (page.startsWith("</", i)) {
          Matcher name = NAME.matcher(page).region(i + 2, page.length());
          if (!name.lookingAt() || page.charAt(name.end()) != '>') {
            throw problem(page, i, "bad end tag");
          }
          if (open.isEmpty() || !open.peek().equals(name.group())) {
            throw problem(page, i, "</" + name.group() + "> closes " + open.peek());
          }
          open.pop();
          i = name.end() + 1;
        } else {
          Matcher name = NAME.matcher(page).region(i + 1, page.length());
          if (!name.lookingAt()) {
            throw problem(page, i, "bad start tag");
          }
          int j = name.end();
          Matcher attribute = ATTRIBUTE.matcher(page);
          while (attribute.region(j, page.length()).lookingAt()) {
            checkText(page, attribute.start(2), attribute.end(2));
            j = attribute.end();
          }
          if (page.startsWith("/>", j)) {
            i = j + 2;
          } else if (page.charAt(j) == '>') {
            if (open.isEmpty()) {
              roots++;
            }
            open.push(name.group());
            i = j + 1;
          } else {
            throw problem(page, j, "unexpected character in tag <" + name.group() + ">");
          }
          if (open.isEmpty() && page.startsWith("/>", j)) {
            roots++;
          }
        }
      } else {
        int next = page.indexOf('<', i);
        int end = next < 0 ? page.length() : next;
        if (open.isEmpty() && !page.substring(i, end).isBlank()) {
          throw problem(page, i, "text outside the root");
        }
        checkText(page, i, end);
        i = end;
      }
    }
    if (!open.isEmpty()) {
      throw problem(page, page.length(), "unclosed " + open);
    }
    if (roots != 1) {
      throw problem(page, 0, roots + " root elements");
    }
  }

  private static void checkText(String page, int from, int to) {
    for (int i = from; i < to; i++) {
      checkCharacter(page, i);
      if (page.charAt(i) == '&' && !REFERENCE.matcher(page).region(i, to).lookingAt()) {
        throw problem(page, i, "bare ampersand");
      }
    }
  }

  private static void checkCharacter(String page, int i) {
    char c = page.charAt(i);
    boolean ok;
    if (Character.isHighSurrogate(c)) {
      ok = i + 1 < page.length() && Character.isLowSurrogate(page.charAt(i + 1));
    } else if (Character.isLowSurrogate(c)) {
      ok = i > 0 && Character.isHighSurrogate(page.charAt(i - 1));
    } else {
      ok = (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != '\uFFFE' && c != '\uFFFF';
    }
    if (!ok) {
      throw problem(page, i, "character U+" + Integer.toHexString(c) + " not allowed in XML");
    }
  }

  private static int after(String page, int from, String end) {
    int at = page.indexOf(end, from);
    if (at < 0) {
      throw problem(page, from, "unterminated " + end);
    }
    return at + end.length();
  }

  private static AssertionError problem(String page, int at, String what) {
    int from = Math.max(0, at - 60);
    int to = Math.min(page.length(), at + 60);
    return new AssertionError("not well-formed at " + at + ": " + what + " near: "
        + page.substring(from, to));
  }
}
