/**
 * The Jackson {@code JsonNode} row adapter, for JSON-lines input. Needs {@code
 * com.fasterxml.jackson.databind} at run time; nothing else in handoff does.
 */
package dev.handoff.clickhouse.json;
