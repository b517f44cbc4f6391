"""An independent reference of readiness (docs/read-models.md), written from the formulas alone.

Usage: python3 Scripts/reference_readiness.py LOG readiness.json

Folds a stored log (corrections replace, deletions remove, redacted lines of
forgotten samples count nowhere, latest profile sets the sleep target) into daily hrv / rhr / sleep-union values and scores, and
compares every day of a rebuilt readiness.json with them (within the file's
rounding). Prints `days N ref days N mismatches K` and exits 1 when K > 0.
Used by the test suite as an oracle that shares no code with the Swift folds.
"""
import json, math, sys, datetime as dt
from collections import defaultdict

def parse_ts(s):
    d = dt.datetime.fromisoformat(s.replace('Z', '+00:00'))
    return d
def local_date(d): return d.date()

samples = {}   # id -> (seq, data)
profile = 480.0
for raw in open(sys.argv[1], 'rb'):
    e = json.loads(raw)
    t, data, seq = e['type'], e['data'], e['seq']
    # A forgotten sample's events are redacted to {"id", "redacted": true}: it counts nowhere.
    if data.get('redacted') is True: samples.pop(data['id'], None)
    elif t == 'sample.ingested': samples[data['id']] = (seq, data)
    elif t == 'sample.deleted': samples.pop(data['id'], None)
    elif t == 'profile.updated': profile = data['sleepTargetMinutes']

hrv = defaultdict(list); rhr = defaultdict(list); asleep = defaultdict(list); inbed = defaultdict(list); days = set()
for sid, (seq, d) in sorted(samples.items(), key=lambda kv: kv[1][0]):
    start, end = parse_ts(d['start']), parse_ts(d['end'])
    if d['kind'] == 'sleep':
        day = local_date(end + dt.timedelta(hours=6))
        iv = (start.timestamp(), end.timestamp())
        if d['value'] in ('asleepUnspecified','asleepCore','asleepDeep','asleepREM'): asleep[day].append(iv)
        elif d['value'] == 'inBed': inbed[day].append(iv)
    else:
        day = local_date(start)
        if d['kind'] == 'hrv': hrv[day].append(d['value'])
        if d['kind'] == 'restingHeartRate': rhr[day].append(d['value'])
    days.add(day)

def union(ivs):
    total = 0; cur = None
    for a, b in sorted(ivs):
        if cur is None or a > cur[1]:
            if cur: total += cur[1] - cur[0]
            cur = [a, b]
        else: cur[1] = max(cur[1], b)
    if cur: total += cur[1] - cur[0]
    return total / 60

def mean(x): return sum(x) / len(x)
hrv_d = {k: mean(v) for k, v in hrv.items()}
rhr_d = {k: mean(v) for k, v in rhr.items()}
def sleep_d(day):
    if asleep.get(day): return union(asleep[day])
    if inbed.get(day): return union(inbed[day])
    return None

def baseline(series, day, f=lambda x: x):
    vals = [f(series[day - dt.timedelta(days=k)]) for k in range(1, 61) if (day - dt.timedelta(days=k)) in series]
    if len(vals) < 14: return None
    m = mean(vals); sd = math.sqrt(sum((v - m) ** 2 for v in vals) / (len(vals) - 1))
    return m, sd, len(vals)

clamp = lambda x: max(0, min(100, x))
out = {}
for day in sorted(days):
    comps = []
    hs = rs = ss = None
    b = baseline(hrv_d, day, math.log)
    if b and day in hrv_d:
        z = 0 if b[1] == 0 else (math.log(hrv_d[day]) - b[0]) / b[1]; hs = clamp(50 + 25 * z); comps.append((0.5, hs))
    b = baseline(rhr_d, day)
    if b and day in rhr_d:
        z = 0 if b[1] == 0 else (rhr_d[day] - b[0]) / b[1]; rs = clamp(50 - 25 * z); comps.append((0.25, rs))
    sm = sleep_d(day)
    if sm is not None:
        ss = clamp(100 * sm / profile); comps.append((0.25, ss))
    w = sum(c[0] for c in comps)
    score = sum(c[0] * c[1] for c in comps) / w if w >= 0.5 else None
    out[str(day)] = (score, hs, rs, ss, hrv_d.get(day), rhr_d.get(day), sm)

model = json.load(open(sys.argv[2]))
bad = 0
for d in model['days']:
    ref = out.get(d['date'])
    if ref is None: print('missing in ref', d['date']); bad += 1; continue
    for name, r, places in zip(['score','hrvScore','rhrScore','sleepScore','hrv','rhr','sleepMinutes'], ref, [1,1,1,1,3,3,3]):
        v = d[name]
        if (v is None) != (r is None) or (v is not None and abs(v - r) > 10 ** -places * 0.5 + 1e-9):
            bad += 1
            if bad < 10: print('diff', d['date'], name, v, r)
print('days', len(model['days']), 'ref days', len(out), 'mismatches', bad)
sys.exit(1 if bad else 0)
