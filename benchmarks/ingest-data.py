#!/usr/bin/env python3
"""Writes the input files of benchmarks/ingest-vs-curl.sh, the same values as JSON lines and as CSV.

  ingest-data.py DIR [NARROW_ROWS] [WIDE_ROWS]

narrow.jsonl / narrow.csv: 6 columns (id UInt64, ts DateTime, user_id UInt32, amount Float64,
status String, comment String); JSON gives ts as epoch seconds, CSV as text in UTC.
wide.jsonl / wide.csv: 20 columns with awkward values (see WIDE_COLUMNS): escapes (quotes,
backslashes, tabs, \\/ and \\uXXXX with surrogate pairs), unicode, nulls, long strings, numbers
near the ends of UInt64 and Int64, tiny and huge floats, decimals, dates, UUIDs, enums.
Deterministic (seeded); every CSV header names the columns.
"""
import datetime
import json
import os
import random
import sys

NARROW_COLUMNS = ("id UInt64, ts DateTime, user_id UInt32, amount Float64, status String,"
                  " comment String")
WIDE_COLUMNS = ("id UInt64, ts DateTime, day Date, big UInt64, neg Int64, small Int8,"
                " ratio Float64, price Decimal(18, 4), name String, note Nullable(String),"
                " body String, status Enum8('new' = 1, 'paid' = 2, 'sent' = 3), flag UInt8,"
                " uid UUID, opt_int Nullable(Int32), opt_float Nullable(Float64),"
                " code FixedString(8), ip String, path String, amount Float32")
EPOCH = datetime.datetime(1970, 1, 1)
WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua Ünïcödé 東京 naïve café").split()


def csv_field(v):
    if v is None:
        return "\\N"
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"'
    return str(v)


def narrow(d, rows):
    rnd = random.Random(1)
    st = ["created", "paid", "shipped", "delivered", "cancelled"]
    with open(os.path.join(d, "narrow.jsonl"), "w") as j, \
            open(os.path.join(d, "narrow.csv"), "w") as c:
        c.write("id,ts,user_id,amount,status,comment\n")
        for i in range(rows):
            ts = 1764748800 + i
            uid = rnd.randrange(10**9)
            amount = "%.2f" % (rnd.random() * 10000)
            status = rnd.choice(st)
            comment = "order note number %08d with some padding text here" % rnd.randrange(10**8)
            j.write('{"id":%d,"ts":%d,"user_id":%d,"amount":%s,"status":"%s","comment":"%s"}\n'
                    % (i, ts, uid, amount, status, comment))
            text = (EPOCH + datetime.timedelta(seconds=ts)).strftime("%Y-%m-%d %H:%M:%S")
            c.write('%d,%s,%d,%s,"%s","%s"\n' % (i, text, uid, amount, status, comment))


def wide(d, rows):
    rnd = random.Random(2)
    names = ["id", "ts", "day", "big", "neg", "small", "ratio", "price", "name", "note", "body",
             "status", "flag", "uid", "opt_int", "opt_float", "code", "ip", "path", "amount"]
    with open(os.path.join(d, "wide.jsonl"), "w", encoding="utf-8") as j, \
            open(os.path.join(d, "wide.csv"), "w", encoding="utf-8") as c:
        c.write(",".join(names) + "\n")
        for i in range(rows):
            t = EPOCH + datetime.timedelta(seconds=1700000000 + i * 37)
            exp = rnd.randint(-300, 300)
            v = {
                "id": i,
                "ts": t.strftime("%Y-%m-%d %H:%M:%S"),
                "day": t.strftime("%Y-%m-%d"),
                "big": (1 << 64) - 1 - rnd.randrange(1 << 40),
                "neg": -(1 << 63) + rnd.randrange(1 << 40),
                "small": rnd.randint(-128, 127),
                "ratio": float("%.15e" % (rnd.random() * 10.0 ** exp)),
                "price": "%d.%04d" % (rnd.randrange(10**12), rnd.randrange(10**4)),
                "name": "имя-%d-名前-é-ü-😀-%s" % (i, rnd.choice(WORDS)),
                "note": None if i % 3 == 0 else 'say "hi", \\ back\tslash, %d %s' % (
                    i, rnd.choice(WORDS)),
                "body": " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(8, 30))),
                "status": rnd.choice(["new", "paid", "sent"]),
                "flag": i % 2,
                "uid": "%08x-%04x-4%03x-8%03x-%012x" % (rnd.getrandbits(32), rnd.getrandbits(16),
                                                        rnd.getrandbits(12), rnd.getrandbits(12),
                                                        rnd.getrandbits(48)),
                "opt_int": None if i % 5 == 0 else rnd.randint(-2**31, 2**31 - 1),
                "opt_float": None if i % 7 == 0 else round(rnd.uniform(-1e6, 1e6), 6),
                "code": "%08d" % rnd.randrange(10**8),
                "ip": "10.%d.%d.%d" % (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)),
                "path": "/srv/data/%d/file-%d.bin" % (i % 100, i),
                "amount": float("%.3f" % (rnd.random() * 1000)),
            }
            line = json.dumps(v, ensure_ascii=(i % 2 == 0), separators=(",", ":"))
            # Decimals as JSON numbers; every other line escapes non-ASCII and '/'.
            line = line.replace('"price":"%s"' % v["price"], '"price":%s' % v["price"])
            if i % 2 == 0:
                line = line.replace("/", "\\/")
            j.write(line + "\n")
            # 18.16 reads a quoted Decimal in CSV as garbage: the decimal goes unquoted.
            c.write(",".join(v[n] if n == "price" else csv_field(v[n]) for n in names) + "\n")


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    narrow(out, int(sys.argv[2]) if len(sys.argv) > 2 else 1000000)
    wide(out, int(sys.argv[3]) if len(sys.argv) > 3 else 200000)
