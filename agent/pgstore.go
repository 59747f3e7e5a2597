package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgStore keeps steps in PostgreSQL, for several machines serving agents
// from one database: any of them can resume a task another started.
//
// Table pybox_agent_steps(task_id, step, kind, created_at, record): the
// primary key (task_id, step) makes a second writer of a step fail. record
// is the step as JSON in a bytea, not jsonb: tool output may hold NUL
// characters, which jsonb refuses. Lock is a session-level advisory lock
// held on a dedicated connection, released by the server if the process
// dies.
type pgStore struct {
	pool *pgxpool.Pool
}

// pgSchemaLock is the advisory lock key under which the table is created,
// so that concurrent first uses do not race.
const pgSchemaLock = 0x7079626f78 // "pybox"

// NewPostgresStore connects to PostgreSQL (a postgres:// URL or key=value
// connection string, as pgx accepts) and creates the steps table if needed.
func NewPostgresStore(ctx context.Context, conn string) (Store, error) {
	pool, err := pgxpool.New(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("agent: postgres: %w", err)
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgSchemaLock)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS pybox_agent_steps (
	task_id    text        NOT NULL,
	step       integer     NOT NULL,
	kind       text        NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	record     bytea       NOT NULL,
	PRIMARY KEY (task_id, step)
)`)
		return err
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("agent: postgres: create table pybox_agent_steps: %w", err)
	}
	return &pgStore{pool: pool}, nil
}

func (s *pgStore) Append(ctx context.Context, st Step) error {
	rec, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("agent: encode step %d: %w", st.N, err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var next int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM pybox_agent_steps WHERE task_id = $1`, st.TaskID).Scan(&next); err != nil {
			return err
		}
		if st.N != next {
			return fmt.Errorf("the next step is %d (is another process running it?)", next)
		}
		_, err := tx.Exec(ctx, `INSERT INTO pybox_agent_steps (task_id, step, kind, record) VALUES ($1, $2, $3, $4)`,
			st.TaskID, st.N, string(st.Kind), rec)
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return fmt.Errorf("agent: store step %d of task %s: already stored (is another process running it?)", st.N, st.TaskID)
	}
	if err != nil {
		return fmt.Errorf("agent: store step %d of task %s: %w", st.N, st.TaskID, err)
	}
	return nil
}

func (s *pgStore) Steps(ctx context.Context, id string) ([]Step, error) {
	rows, err := s.pool.Query(ctx, `SELECT step, record FROM pybox_agent_steps WHERE task_id = $1 ORDER BY step`, id)
	if err != nil {
		return nil, fmt.Errorf("agent: load task %s: %w", id, err)
	}
	defer rows.Close()
	var steps []Step
	for rows.Next() {
		var n int
		var rec []byte
		if err := rows.Scan(&n, &rec); err != nil {
			return nil, fmt.Errorf("agent: load task %s: %w", id, err)
		}
		var st Step
		if err := json.Unmarshal(rec, &st); err != nil {
			return nil, fmt.Errorf("agent: task %s step %d: %w", id, n, err)
		}
		if n != len(steps) || st.N != n {
			return nil, fmt.Errorf("agent: task %s: step %d where %d was expected", id, n, len(steps))
		}
		steps = append(steps, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("agent: load task %s: %w", id, err)
	}
	return steps, nil
}

func (s *pgStore) Lock(ctx context.Context, id string) (func(), error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("agent: lock task %s: %w", id, err)
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, "pybox-agent:"+id).Scan(&ok); err != nil {
		conn.Release()
		return nil, fmt.Errorf("agent: lock task %s: %w", id, err)
	}
	if !ok {
		conn.Release()
		return nil, fmt.Errorf("agent: task %s: %w", id, ErrLocked)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			conn.Exec(context.Background(), `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, "pybox-agent:"+id)
			conn.Release()
		})
	}, nil
}

func (s *pgStore) Close() error {
	s.pool.Close()
	return nil
}
