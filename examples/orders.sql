CREATE DATABASE IF NOT EXISTS shop;
CREATE TABLE IF NOT EXISTS shop.orders (id UInt64, ts DateTime, customer String, amount Decimal(18, 2), note Nullable(String)) ENGINE = MergeTree ORDER BY id;
