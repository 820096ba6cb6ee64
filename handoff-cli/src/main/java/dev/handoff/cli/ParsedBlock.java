package dev.handoff.cli;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line-aligned range of the input, with its lines parsed: the unit a parser thread works on
 * and, once pushed, one source batch.
 *
 * <p>The block keeps its own copy of the range's bytes (parsing runs on another thread than
 * reading), so the message of a bad row can quote its line and stdin can replay the range. Rows
 * are the non-blank lines, in input order; a row that could not be parsed has no node and a
 * reason instead.
 *
 * <p>A block read from a file is used again once its rows are pushed ({@link BlockReader#recycle}):
 * its arrays then hold the next block, so a run allocates a few blocks' arrays, not one set per
 * block. {@link #reuse} resets it; {@link #length} is its bytes' length, the array may be longer.
 *
 * <p>A row read on the fast path (an object of scalar values, see {@link LineParser}) is held
 * flat, column by column, in {@link #kinds}, {@link #values} and {@link #objects}, with no tree;
 * any other row that parses keeps its tree in {@link #nodes}. {@link BlockRows} reads both.
 */
final class ParsedBlock {

  /** The input offset of the block's first byte. */
  long start;
  /** The input offset just after the block's last line (after its newline). */
  long end;
  /** The lines of the input before this block (blank ones included). */
  long linesBefore;
  /** The block's bytes: the input's bytes {@code [start, end)} in {@code [0, length)}. */
  byte[] bytes;
  /** How many of {@link #bytes} are the block's: {@code end - start}. */
  int length;
  /** The flat slots the last parse of this block's arrays filled (cleared before the next). */
  int usedSlots;
  /** How many rows (non-blank lines) the block holds. */
  int rows;
  /** Each row's tree, or {@code null} when it is held flat or could not be parsed. */
  JsonNode[] nodes;
  /** The number of columns of a flat row (the stride of the flat arrays). */
  int columns;
  /** Each flat row's value codes, {@code columns} a row ({@link BlockRows}'s codes). */
  byte[] kinds;
  /** Each flat row's numbers and booleans: longs, double bits, 0 or 1. */
  long[] values;
  /** Each flat row's strings and big integers. */
  Object[] objects;
  /** Where each row's line starts in {@link #bytes}. */
  int[] lineStart;
  /** Each row's line length, without its newline. */
  int[] lineLength;
  /** Where the line after each row's line starts in {@link #bytes}. */
  int[] lineEnd;
  /** Each row's line number, counted from 0 at the block's first line. */
  int[] lineIndex;
  /** Why a row could not be parsed (its count key), or {@code null}; allocated on demand. */
  String[] reason;
  /** The message for a row that could not be parsed; allocated on demand. */
  String[] detail;
  /** Fields of a row that name no column, or {@code null}; allocated on demand. */
  String[][] unknown;
  /** How many lines (blank ones included) the block holds. */
  int lines;
  /**
   * Where each of the {@link #lines} lines ends in {@link #bytes} (its newline, or the end of
   * the bytes), as the reader found them; {@code null} when the parser finds them itself.
   */
  int[] lineEnds;

  ParsedBlock(long start, long end, long linesBefore, byte[] bytes) {
    this.start = start;
    this.end = end;
    this.linesBefore = linesBefore;
    this.bytes = bytes;
    this.length = bytes.length;
  }

  /**
   * Makes this block, whose rows were pushed, the block of the input's bytes {@code [start,
   * start + length)} now in {@code bytes[0, length)}, with nothing parsed; its arrays stay to be
   * filled again.
   */
  void reuse(long start, long linesBefore, int length) {
    this.start = start;
    this.end = start + length;
    this.linesBefore = linesBefore;
    this.length = length;
    this.rows = 0;
    this.lines = 0;
    this.reason = null;
    this.detail = null;
    this.unknown = null;
  }

  /** Returns the block's bytes in an array of their length: {@link #bytes} itself if it is. */
  byte[] exactBytes() {
    return bytes.length == length ? bytes : java.util.Arrays.copyOf(bytes, length);
  }

  /** Returns the 1-based input line number of row {@code i}. */
  long lineNumber(int i) {
    return linesBefore + lineIndex[i] + 1;
  }

  /** Returns the input byte offset where row {@code i}'s line starts. */
  long offset(int i) {
    return start + lineStart[i];
  }

  /** Returns row {@code i}'s line as text (for messages and reject files). */
  String lineText(int i) {
    return new String(bytes, lineStart[i], lineLength[i], java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Records that row {@code i} could not be parsed. */
  void problem(int i, String why, String message) {
    if (reason == null) {
      reason = new String[nodes.length];
      detail = new String[nodes.length];
    }
    reason[i] = why;
    detail[i] = message;
  }

  /** Records row {@code i}'s fields that name no column. */
  void unknownFields(int i, String[] names) {
    if (unknown == null) {
      unknown = new String[nodes.length][];
    }
    unknown[i] = names;
  }

  /** Returns whether row {@code i} could not be parsed. */
  boolean bad(int i) {
    return reason != null && reason[i] != null;
  }

  /** Returns why row {@code i} could not be parsed, or {@code null}. */
  String reasonOf(int i) {
    return reason == null ? null : reason[i];
  }

  /** Returns row {@code i}'s unknown fields, or {@code null}. */
  String[] unknownOf(int i) {
    return unknown == null ? null : unknown[i];
  }
}
