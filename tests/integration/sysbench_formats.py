# sysbench_formats.py SYSBENCH REPORT...: every non-blank line of each report, from
# the one after its first blank line (past the version banner) to the
# "execution time (avg/stddev)" line, must be printed by one of the printf
# formats inside the sysbench binary (alone or after its "[ %.0fs ] "
# prefix): the line's values parsed by the format and printed through it
# again give the line byte for byte. Prints the misfits and
# "CHECKED LINES MISFITS".
import re, sys

data = open(sys.argv[1], 'rb').read()
texts = set()
for s in re.findall(rb'[\x20-\x7e\t\n]{4,}', data):
    for line in s.decode('latin-1').split('\n'):
        if line.strip():
            texts.add(line)
SPEC = re.compile(r'%([-+ 0#]*)(\d+)?(?:\.(\d+|\*))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfgGsc%])')


def compile_format(t):
    """(regex, Python format, conversions) for printf format t, or None."""
    rx, py, convs, pos = '', '', [], 0
    for m in SPEC.finditer(t):
        lit = t[pos:m.start()]
        rx += re.escape(lit)
        py += lit.replace('%', '%%')
        pos = m.end()
        flags, width, prec, _, conv = m.groups()
        if conv == '%':
            rx += '%'
            py += '%%'
            continue
        if conv in 'diouxX':
            num = r'-?\d+'
        elif conv in 'eEfgG':
            num = r'-?\d+(?:\.\d*)?(?:e[-+]?\d+)?'
        elif conv == 's':
            num = r'.*?'
        else:
            return None
        rx += r' *(' + num + r') *'
        py += '%' + flags + (width or '') + ('.' + prec if prec else '') + ('d' if conv == 'u' else conv)
        convs.append((conv, prec == '*'))
    rx += re.escape(t[pos:])
    py += t[pos:].replace('%', '%%')
    return re.compile(rx), py, convs


formats = {'': [], '[ ': []}
for t in texts:
    # a %s with next to no text around it ("%s%s", "%s: %s") prints any line
    if re.search(r'%-?\d*s', t) and len(re.sub(r'\s', '', SPEC.sub('', t))) < 4:
        continue
    for pre, key in (('', ''), ('[ %.0fs ] ', '[ ')):
        c = compile_format(pre + t)
        if c:
            formats[key].append(c)


def printed(line):
    for rx, py, convs in formats['[ ' if line.startswith('[ ') else '']:
        m = rx.fullmatch(line)
        if not m:
            continue
        vals = []
        for (conv, star), g in zip(convs, m.groups()):
            if conv in 'dioxXu':
                vals.append(int(g))
            elif conv in 'eEfgG':
                vals.append(float(g))
            elif star:
                vals += [len(g), g]
            else:
                vals.append(g)
        try:
            if py % tuple(vals) == line:
                return True
        except (TypeError, ValueError):
            pass
    return False


n = bad = 0
for path in sys.argv[2:]:
    rep = open(path, encoding='latin-1').read().split('\n')
    ends = [i for i, l in enumerate(rep) if l.startswith('    execution time (avg/stddev):')]
    if '' not in rep or not ends:
        print('%s: no report' % path)
        bad += 1
        continue
    for i in range(rep.index('') + 1, ends[-1] + 1):
        if rep[i].strip():
            n += 1
            if not printed(rep[i]):
                print('%s:%d: no sysbench format prints %r' % (path, i + 1, rep[i]))
                bad += 1
print('CHECKED %d %d' % (n, bad))
