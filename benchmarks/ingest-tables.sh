# The tables of the files ingest-data.py writes, for the ingest benchmark scripts to source:
# each schema's columns and a checksum over all of them (equal when two loaders wrote the same
# values).
# shellcheck disable=SC2034 # used by the scripts that source this file
narrow_cols='id UInt64, ts DateTime, user_id UInt32, amount Float64, status String, comment String'
narrow_sum='sum(cityHash64(id, ts, user_id, amount, status, comment))'
wide_cols="id UInt64, ts DateTime, day Date, big UInt64, neg Int64, small Int8, ratio Float64,\
 price Decimal(18, 4), name String, note Nullable(String), body String,\
 status Enum8('new' = 1, 'paid' = 2, 'sent' = 3), flag UInt8, uid UUID,\
 opt_int Nullable(Int32), opt_float Nullable(Float64), code FixedString(8), ip String,\
 path String, amount Float32"
wide_sum="sum(cityHash64(id, ts, day, big, neg, small, ratio, toString(price), name,\
 ifNull(note, '~'), body, toString(status), flag, toString(uid), ifNull(toString(opt_int), '~'),\
 ifNull(toString(opt_float), '~'), code, ip, path, amount))"
