# asyncio in the sandbox: the event loop runs without its self-pipe (one
# thread, no socket pair), timers sleep in the host, the default executor
# and ThreadPoolExecutor run work at once in the only thread.
import asyncio
import signal
import concurrent.futures
import contextvars
import time


async def double(x, delay=0.01):
    await asyncio.sleep(delay)
    return 2 * x


async def main():
    print("gather", await asyncio.gather(*(double(i) for i in range(5))))

    t0 = time.monotonic()
    await asyncio.gather(asyncio.sleep(0.2), asyncio.sleep(0.2), asyncio.sleep(0.2))
    print("sleeps overlap", time.monotonic() - t0 < 0.5)

    task = asyncio.create_task(double(21))
    print("task", await task, task.done())

    async with asyncio.TaskGroup() as tg:
        ts = [tg.create_task(double(i)) for i in range(3)]
    print("taskgroup", [t.result() for t in ts])
    try:
        async with asyncio.timeout(0.05):
            await asyncio.sleep(10)
    except TimeoutError:
        print("timeout ok")
    try:
        await asyncio.wait_for(asyncio.sleep(10), 0.05)
    except asyncio.TimeoutError:
        print("wait_for ok")

    q = asyncio.Queue()

    async def producer():
        for i in range(3):
            await q.put(i)
            await asyncio.sleep(0)
        await q.put(None)

    async def consumer():
        got = []
        while (item := await q.get()) is not None:
            got.append(item)
        return got
    _, got = await asyncio.gather(producer(), consumer())
    print("queue", got)

    ev = asyncio.Event()
    lock = asyncio.Lock()
    sem = asyncio.Semaphore(2)
    order = []

    async def waiter(n):
        await ev.wait()
        async with sem:
            async with lock:
                order.append(n)
    ws = [asyncio.create_task(waiter(i)) for i in range(3)]
    await asyncio.sleep(0)
    ev.set()
    await asyncio.gather(*ws)
    print("event lock semaphore", sorted(order))

    loop = asyncio.get_running_loop()
    fired = []
    loop.call_later(0.02, fired.append, "later")
    loop.call_soon(fired.append, "soon")
    loop.call_soon_threadsafe(fired.append, "threadsafe")
    await asyncio.sleep(0.05)
    print("callbacks", fired)

    print("to_thread", await asyncio.to_thread(sum, [1, 2, 3]))
    print("run_in_executor", await loop.run_in_executor(None, pow, 2, 10))

    async def agen():
        for i in range(3):
            await asyncio.sleep(0)
            yield i
    print("async gen", [i async for i in agen()])

    var = contextvars.ContextVar("var", default="unset")

    async def see():
        return var.get()
    var.set("main")
    print("contextvar", await asyncio.create_task(see()))

    # Signal handlers: a signal the program raises itself reaches the loop's
    # callback, as natively; uncatchable signals are refused as natively.
    got = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, got.set_result, "term")
    signal.raise_signal(signal.SIGTERM)
    print("signal handler", await asyncio.wait_for(got, 5), loop.remove_signal_handler(signal.SIGTERM),
          loop.remove_signal_handler(signal.SIGTERM))
    try:
        loop.add_signal_handler(signal.SIGKILL, print)
    except RuntimeError as e:
        print("signal handler refused", e)
    try:
        await asyncio.open_connection("example.com", 80)
    except PermissionError as e:
        print("network refused", "no sockets" in str(e))
    return "done"


print("run", asyncio.run(main()))


async def taskgroup_error():
    # Its own asyncio.run: CPython 3.11.2's TaskGroup leaves its parent task
    # marked as cancelled after an error (fixed in later 3.11 releases), so a
    # later asyncio.timeout in that task would not turn into TimeoutError.
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(double(1))

            async def boom():
                raise ValueError("boom")
            tg.create_task(boom())
    except* ValueError as eg:
        print("taskgroup error", [str(e) for e in eg.exceptions])
asyncio.run(taskgroup_error())
try:
    asyncio.run(asyncio.sleep(0, result=asyncio.run(double(1))))
    print("sequential runs ok")
except RuntimeError as e:
    print("sequential runs", e)


async def nested():
    asyncio.run(double(1))
try:
    asyncio.run(nested())
except RuntimeError as e:
    print("nested", e)
    
loop = asyncio.new_event_loop()
print("new loop", loop.run_until_complete(double(4)))
loop.close()

with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
    print("executor map", list(ex.map(lambda v: v * v, range(5))))
    fs = [ex.submit(divmod, 7, d) for d in (2, 0)]
    print("executor submit", fs[0].result())
    try:
        fs[1].result()
    except ZeroDivisionError:
        print("executor error kept in its future")
    print("as_completed", sorted(f.done() for f in concurrent.futures.as_completed(fs)))

# In debug mode run_in_executor refuses a coroutine function, as CPython's
# does (test_asyncio's test_call_coroutine).
async def simple():
    pass
loop = asyncio.new_event_loop()
loop.set_debug(True)
try:
    loop.run_until_complete(loop.run_in_executor(None, simple))
except TypeError as e:
    print("executor coroutine", e)
loop.close()

# A coroutine submitted to the loop from a call the executor runs (natively in
# another thread) cannot finish while that call waits for it: in the sandbox
# the wait is refused at once instead of hanging until the time limit.
async def add(a, b):
    await asyncio.sleep(0)
    return a + b

def bridge(loop):
    fut = asyncio.run_coroutine_threadsafe(add(1, 2), loop)
    try:
        return fut.result()
    finally:
        fut.cancel()

async def bridged():
    return await asyncio.get_running_loop().run_in_executor(None, bridge, asyncio.get_running_loop())
try:
    print("threadsafe bridge", asyncio.run(bridged()))
except RuntimeError as e:
    print("threadsafe bridge refused", str(e).startswith("deadlock refused"))

# concurrent.futures.wait() and as_completed() without a timeout refuse to
# wait for a future nothing can complete, as Future.result() does; what is
# already done comes back as natively.
import concurrent.futures as cf
pending, done = cf.Future(), cf.Future()
done.set_result(1)
print("futures wait done", cf.wait([done]).done == {done},
      cf.wait([pending, done], return_when=cf.FIRST_COMPLETED).done == {done})
for name, call in (("wait", lambda: cf.wait([pending, done])),
                   ("as_completed", lambda: list(cf.as_completed([done, pending])))):
    try:
        call()
    except RuntimeError as e:
        print("futures", name, "refused", str(e).startswith("deadlock refused"))
print("futures wait timeout", cf.wait([pending], timeout=0.001).not_done == {pending})
