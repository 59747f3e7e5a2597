# sqlite3 in the standard library (scripts/build-sqlite.sh): a database in
# /tmp (memory) and on a read-write mount (/work, a host folder), JSON
# functions, FTS5, WAL mode, and locking between connections of one guest.
# Printed deterministically for runtime/bundle_test.go.
import sqlite3

print("version", sqlite3.sqlite_version, sqlite3.threadsafety)

for path in ["/tmp/t.db", "/work/t.db"]:
    con = sqlite3.connect(path)
    con.execute("create table docs(id integer primary key, meta text, body text)")
    con.executemany("insert into docs(meta, body) values (?, ?)", [
        ('{"tags": ["a", "b"], "n": 1}', "the quick brown fox"),
        ('{"tags": ["c", "d"], "n": 2}', "jumps over the lazy dog"),
        ('{"tags": ["e"], "n": 3}', "a quick red fox runs"),
    ])
    con.execute("create virtual table ft using fts5(body)")
    con.execute("insert into ft(rowid, body) select id, body from docs")
    con.commit()
    con.close()

    con = sqlite3.connect(path)
    tag = con.execute("select json_extract(meta, '$.tags[1]') from docs where id = 2").fetchone()[0]
    total = con.execute("select sum(json_extract(meta, '$.n')) from docs").fetchone()[0]
    hits = con.execute("select rowid from ft where ft match 'quick AND fox' order by rowid").fetchall()
    print(path, "json", tag, total, "fts5", [r[0] for r in hits])

    # A second connection sees committed data and is locked out of a write
    # the first one holds.
    other = sqlite3.connect(path, timeout=0)
    con.execute("begin immediate")
    con.execute("insert into docs(meta, body) values ('{}', 'pending')")
    try:
        other.execute("begin immediate")
        print(path, "lock not enforced")
    except sqlite3.OperationalError as e:
        print(path, "locked:", e)
    con.commit()
    print(path, "rows", other.execute("select count(*) from docs").fetchone()[0])

    # WAL mode (the WAL index lives in memory on WASI).
    mode = con.execute("pragma journal_mode=wal").fetchone()[0]
    con.execute("insert into docs(meta, body) values ('{}', 'wal row')")
    con.commit()
    print(path, "wal", mode, other.execute("select count(*) from docs").fetchone()[0])
    con.execute("pragma journal_mode=delete")
    other.close()
    con.close()

# Two databases are locked independently (SQLite keys its locks by inode).
a, b = sqlite3.connect("/tmp/a.db", timeout=0), sqlite3.connect("/tmp/b.db", timeout=0)
a.execute("create table t(x)"); b.execute("create table t(x)")
a.execute("begin exclusive")
b.execute("insert into t values (1)")
b.commit()
a.commit()
print("independent ok")
print("memory", sqlite3.connect(":memory:").execute("select json_array(1, 2), sqrt(16.0)").fetchone())
