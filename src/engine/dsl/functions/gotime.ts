// Go time layouts ("2006-01-02 15:04:05") for formatting and parsing, in local time or a parsed zone.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// Longest tokens first so "2006" wins over "2", "January" over "Jan".
const TOKENS = [
  'January',
  'Monday',
  '2006',
  '-07:00:00',
  '-070000',
  'Z07:00:00',
  'Z070000',
  'Z07:00',
  'Z0700',
  '-07:00',
  '-0700',
  'Z07',
  '-07',
  '.000000000',
  '.000000',
  '.000',
  '.999999999',
  '.999999',
  '.999',
  ',000',
  '_2',
  '002',
  'Jan',
  'Mon',
  'MST',
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '15',
  'PM',
  'pm',
  '1',
  '2',
  '3',
  '4',
  '5',
];

function tokenize(layout: string): string[] {
  const out: string[] = [];
  let lit = '';
  for (let i = 0; i < layout.length;) {
    const tok = TOKENS.find((t) => layout.startsWith(t, i));
    if (tok) {
      if (lit) out.push('\0' + lit);
      lit = '';
      out.push(tok);
      i += tok.length;
    } else {
      lit += layout[i++];
    }
  }
  if (lit) out.push('\0' + lit);
  return out;
}

const p2 = (n: number) => String(n).padStart(2, '0');

function zone(offsetMin: number, tok: string): string {
  if (tok.startsWith('Z') && offsetMin === 0) return 'Z';
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  const hh = p2(Math.floor(a / 60));
  const mm = p2(a % 60);
  if (tok.endsWith('07')) return sign + hh;
  if (tok.includes(':')) return `${sign}${hh}:${mm}` + (tok.endsWith(':00:00') ? ':00' : '');
  return `${sign}${hh}${mm}` + (tok.endsWith('0000') ? '00' : '');
}

/** time.Format for a Date shown in the process's local zone. */
export function goFormat(d: Date, layout: string): string {
  const offset = -d.getTimezoneOffset();
  const h = d.getHours();
  return tokenize(layout)
    .map((t) => {
      if (t.startsWith('\0')) return t.slice(1);
      switch (t) {
        case 'January':
          return MONTHS[d.getMonth()];
        case 'Jan':
          return MONTHS[d.getMonth()].slice(0, 3);
        case 'Monday':
          return DAYS[d.getDay()];
        case 'Mon':
          return DAYS[d.getDay()].slice(0, 3);
        case '2006':
          return String(d.getFullYear()).padStart(4, '0');
        case '06':
          return p2(d.getFullYear() % 100);
        case '01':
          return p2(d.getMonth() + 1);
        case '1':
          return String(d.getMonth() + 1);
        case '02':
          return p2(d.getDate());
        case '2':
          return String(d.getDate());
        case '_2':
          return String(d.getDate()).padStart(2, ' ');
        case '002': {
          const start = new Date(d.getFullYear(), 0, 1);
          return String(Math.floor((d.getTime() - start.getTime()) / 86400000) + 1).padStart(3, '0');
        }
        case '15':
          return p2(h);
        case '03':
          return p2(h % 12 === 0 ? 12 : h % 12);
        case '3':
          return String(h % 12 === 0 ? 12 : h % 12);
        case '04':
          return p2(d.getMinutes());
        case '4':
          return String(d.getMinutes());
        case '05':
          return p2(d.getSeconds());
        case '5':
          return String(d.getSeconds());
        case 'PM':
          return h >= 12 ? 'PM' : 'AM';
        case 'pm':
          return h >= 12 ? 'pm' : 'am';
        case 'MST': {
          const name = Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
            .formatToParts(d)
            .find((p) => p.type === 'timeZoneName')?.value;
          return name && /^[A-Z]{3,4}$/.test(name) ? name : zone(offset, '-0700');
        }
        case '.000':
        case ',000':
          return t[0] + String(d.getMilliseconds()).padStart(3, '0');
        case '.000000':
          return '.' + String(d.getMilliseconds()).padStart(3, '0') + '000';
        case '.000000000':
          return '.' + String(d.getMilliseconds()).padStart(3, '0') + '000000';
        case '.999':
        case '.999999':
        case '.999999999': {
          const ms = String(d.getMilliseconds()).padStart(3, '0').replace(/0+$/, '');
          return ms ? '.' + ms : '';
        }
        default:
          return zone(offset, t);
      }
    })
    .join('');
}

/** time.Parse: returns unix seconds, or undefined when the input does not fit the layout. */
export function goParse(input: string, layout: string): number | undefined {
  let re = '^';
  const fields: string[] = [];
  for (const t of tokenize(layout)) {
    if (t.startsWith('\0')) {
      re += t.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    fields.push(t);
    switch (t) {
      case 'January':
        re += `(${MONTHS.join('|')})`;
        break;
      case 'Jan':
        re += `(${MONTHS.map((m) => m.slice(0, 3)).join('|')})`;
        break;
      case 'Monday':
        re += `(${DAYS.join('|')})`;
        break;
      case 'Mon':
        re += `(${DAYS.map((m) => m.slice(0, 3)).join('|')})`;
        break;
      case '2006':
        re += '(\\d{4})';
        break;
      case '002':
        re += '(\\d{3})';
        break;
      case '_2':
        re += ' ?(\\d{1,2})';
        break;
      case '01':
      case '02':
      case '03':
      case '04':
      case '05':
      case '06':
      case '15':
        re += '(\\d{2})';
        break;
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
        re += '(\\d{1,2})';
        break;
      case 'PM':
      case 'pm':
        re += '([AaPp][Mm])';
        break;
      case 'MST':
        re += '([A-Z]{3,5})';
        break;
      default:
        if (t.startsWith('.') || t.startsWith(',')) re += '(?:[.,](\\d+))?';
        else
          re += t.startsWith('Z')
            ? '(Z|[+-]\\d{2}(?::?\\d{2})?(?::?\\d{2})?)'
            : '([+-]\\d{2}(?::?\\d{2})?(?::?\\d{2})?)';
    }
    // Go accepts fractional seconds after a seconds field even when the layout has none.
    if ((t === '05' || t === '5') && !layout.includes(t + '.')) ((re += '(?:[.,](\\d+))?'), fields.push('frac'));
  }
  const m = new RegExp(re + '$').exec(input);
  if (!m) return undefined;
  let year = 1,
    month = 1,
    day = 1,
    hour = 0,
    min = 0,
    sec = 0,
    ms = 0;
  let pm: boolean | undefined;
  let offsetMin: number | undefined;
  fields.forEach((f, i) => {
    const v = m[i + 1];
    if (v === undefined) return;
    switch (f) {
      case 'January':
        month = MONTHS.indexOf(v) + 1;
        break;
      case 'Jan':
        month = MONTHS.findIndex((x) => x.startsWith(v)) + 1;
        break;
      case '2006':
        year = Number(v);
        break;
      case '06':
        year = Number(v) + (Number(v) >= 69 ? 1900 : 2000);
        break;
      case '01':
      case '1':
        month = Number(v);
        break;
      case '02':
      case '2':
      case '_2':
        day = Number(v);
        break;
      case '15':
        hour = Number(v);
        break;
      case '03':
      case '3':
        hour = Number(v);
        break;
      case '04':
      case '4':
        min = Number(v);
        break;
      case '05':
      case '5':
        sec = Number(v);
        break;
      case 'PM':
      case 'pm':
        pm = v.toLowerCase() === 'pm';
        break;
      case 'Monday':
      case 'Mon':
      case 'MST':
      case '002':
        break;
      default:
        if (f === 'frac' || f.startsWith('.') || f.startsWith(',')) ms = Number((v + '000').slice(0, 3));
        else if (v === 'Z') offsetMin = 0;
        else {
          const z = /^([+-])(\d{2}):?(\d{2})?/.exec(v)!;
          offsetMin = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0));
        }
    }
  });
  if (pm !== undefined) hour = (hour % 12) + (pm ? 12 : 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59) return undefined;
  // No zone in the input means UTC, as with Go's time.Parse.
  const utc = Date.UTC(year, month - 1, day, hour, min, sec, ms);
  return Math.floor((utc - (offsetMin ?? 0) * 60000) / 1000);
}
