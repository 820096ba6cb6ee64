package dev.handoff.clickhouse.value;

/** A reusable view of a range of a StringBuilder. */
final class CharRange implements CharSequence {
  private StringBuilder sb;
  private int start;
  private int end;

  CharRange of(StringBuilder sb, int start, int end) {
    this.sb = sb;
    this.start = start;
    this.end = end;
    return this;
  }

  @Override
  public int length() {
    return end - start;
  }

  @Override
  public char charAt(int index) {
    return sb.charAt(start + index);
  }

  @Override
  public CharSequence subSequence(int from, int to) {
    return sb.substring(start + from, start + to);
  }

  @Override
  public String toString() {
    return sb.substring(start, end);
  }
}
