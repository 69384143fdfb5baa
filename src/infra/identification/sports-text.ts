// Sports cards (issue 32): what a baseball, basketball, football or hockey card prints, read off the whole face as
// tesseract gives it: the player, the team, the position, and the year and brand where the card prints them. Pure
// string work. There is no sports catalogue: this is shown as read, never as a confirmed card.

export interface PrintedSportsCard {
  player: string | null;
  team: string | null;
  position: string | null;
  year: string | null;
  brand: string | null;
}

/** Card makers, as printed (a logo in letters, or the copyright line). */
const BRANDS = ['Topps', 'Bowman', 'Upper Deck', 'Fleer', 'Donruss', 'Panini', 'Score', 'Leaf', 'Prizm', 'Select', 'Stadium Club', 'O-Pee-Chee', 'Pacific', 'SkyBox', 'Hoops', 'Pinnacle', 'Playoff', 'Goudey', 'Upper Deck', 'Classic', 'Pro Set'];

/** Team nicknames of MLB, NBA, NFL and NHL: printed on nearly every card, often alone ("YANKEES"). */
const TEAMS = [
  // MLB
  'Angels', 'Astros', 'Athletics', 'Blue Jays', 'Braves', 'Brewers', 'Cardinals', 'Cubs', 'Diamondbacks', 'Dodgers', 'Giants', 'Guardians', 'Indians', 'Mariners', 'Marlins', 'Mets', 'Nationals', 'Expos', 'Orioles', 'Padres', 'Phillies', 'Pirates', 'Rangers', 'Rays', 'Devil Rays', 'Red Sox', 'Reds', 'Rockies', 'Royals', 'Tigers', 'Twins', 'White Sox', 'Yankees',
  // NBA
  'Hawks', 'Celtics', 'Nets', 'Hornets', 'Bulls', 'Cavaliers', 'Mavericks', 'Nuggets', 'Pistons', 'Warriors', 'Rockets', 'Pacers', 'Clippers', 'Lakers', 'Grizzlies', 'Heat', 'Bucks', 'Timberwolves', 'Pelicans', 'Knicks', 'Thunder', 'Magic', '76ers', 'Suns', 'Trail Blazers', 'Kings', 'Spurs', 'Raptors', 'Jazz', 'Wizards', 'SuperSonics',
  // NFL
  'Cardinals', 'Falcons', 'Ravens', 'Bills', 'Panthers', 'Bears', 'Bengals', 'Browns', 'Cowboys', 'Broncos', 'Lions', 'Packers', 'Texans', 'Colts', 'Jaguars', 'Chiefs', 'Raiders', 'Chargers', 'Rams', 'Dolphins', 'Vikings', 'Patriots', 'Saints', 'Jets', 'Eagles', 'Steelers', '49ers', 'Seahawks', 'Buccaneers', 'Titans', 'Commanders', 'Redskins', 'Oilers',
  // NHL
  'Ducks', 'Bruins', 'Sabres', 'Flames', 'Hurricanes', 'Blackhawks', 'Avalanche', 'Blue Jackets', 'Stars', 'Red Wings', 'Oilers', 'Kraken', 'Wild', 'Canadiens', 'Predators', 'Devils', 'Islanders', 'Senators', 'Flyers', 'Penguins', 'Sharks', 'Blues', 'Lightning', 'Maple Leafs', 'Canucks', 'Golden Knights', 'Capitals', 'Jets', 'Nordiques', 'Whalers',
];

/** Positions as cards print them: words first, then the abbreviations (only as a word of their own). */
const POSITIONS = [
  'Pitcher', 'Catcher', 'First Base', 'Second Base', 'Third Base', 'Shortstop', 'Outfield', 'Outfielder', 'Infield', 'Designated Hitter',
  'Quarterback', 'Running Back', 'Wide Receiver', 'Tight End', 'Linebacker', 'Cornerback', 'Safety', 'Defensive End', 'Kicker',
  'Guard', 'Forward', 'Center', 'Goalie', 'Goaltender', 'Defense', 'Defenseman', 'Left Wing', 'Right Wing',
];
const POSITION_ABBREVIATIONS = ['1B', '2B', '3B', 'SS', 'OF', 'DH', 'QB', 'RB', 'WR', 'TE', 'LB', 'CB', 'DE', 'G-F', 'F-C', 'LW', 'RW', 'RHP', 'LHP'];

const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The first of `names` a line holds as whole words, case-insensitive; longer names first ("Red Sox" before "Reds"). */
function findIn(lines: readonly string[], names: readonly string[]): string | null {
  const longestFirst = [...new Set(names)].sort((a, b) => b.length - a.length);
  for (const line of lines)
    for (const name of longestFirst) if (new RegExp(`(?<![\\p{L}\\p{N}])${escaped(name)}(?![\\p{L}\\p{N}])`, 'iu').test(line)) return name;
  return null;
}

/** Years a card may print (the copyright line, the set's year): 1948 to next year. */
function yearIn(lines: readonly string[]): string | null {
  const latest = new Date().getUTCFullYear() + 1;
  for (const line of lines) {
    const copyright = /(?:©|\(c\)|copyright)\s*((?:19|20)\d{2})/i.exec(line);
    if (copyright && Number(copyright[1]) >= 1948 && Number(copyright[1]) <= latest) return copyright[1]!;
  }
  for (const line of lines)
    for (const found of line.matchAll(/(?<!\d)((?:19|20)\d{2})(?!\d)/g)) if (Number(found[1]) >= 1948 && Number(found[1]) <= latest) return found[1]!;
  return null;
}

/** A person's name: two or three words of letters (an initial, an apostrophe or a hyphen allowed), none of them a team, brand or position. */
function playerIn(lines: readonly string[], taken: readonly (string | null)[]): string | null {
  const takenKeys = new Set(taken.filter((t): t is string => t !== null).map(key));
  const known = new Set([...TEAMS, ...BRANDS, ...POSITIONS].map(key));
  for (const line of lines) {
    const words = line
      .replace(/[^\p{L}'.\- ]/gu, ' ')
      .split(/\s+/)
      .filter((word) => /\p{L}{2,}|^\p{Lu}\.$/u.test(word));
    if (words.length < 2 || words.length > 3) continue;
    if (words.some((word) => known.has(key(word)) || takenKeys.has(key(word)))) continue;
    if (known.has(key(words.join(' ')))) continue;
    if (!words.every((word) => /^\p{Lu}/u.test(word))) continue; // names are capitalised (or all capitals)
    return words.map((word) => (word === word.toUpperCase() && word.length > 2 ? word[0] + word.slice(1).toLowerCase() : word)).join(' ');
  }
  return null;
}

/** Print only a Pokémon card has: a face with any of it is no sports card ("Thunder" is an attack there, not a team). */
const POKEMON_PRINT = /pok[eé]mon|nintendo|weakness|resistance|retreat|\bHP\b|illus\.|evolves/i;

/**
 * What a sports card prints, from the lines read off its face. Null unless it names a team with one more fact (a
 * position, a brand or a year), or a position with a brand, and prints nothing only a Pokémon card prints: else the
 * print is not taken for a sports card's.
 */
export function sportsCardFromLines(lines: readonly string[]): PrintedSportsCard | null {
  if (lines.some((line) => POKEMON_PRINT.test(line))) return null;
  const team = findIn(lines, TEAMS);
  const brand = findIn(lines, BRANDS);
  const position = findIn(lines, POSITIONS) ?? abbreviationIn(lines);
  const year = yearIn(lines);
  if (!(team && (position || brand || year)) && !(position && brand)) return null;
  return { player: playerIn(lines, [team, brand, position]), team, position, year, brand };
}

/** A position's abbreviation as a word of its own, in capitals ("SS", "QB"). */
function abbreviationIn(lines: readonly string[]): string | null {
  for (const line of lines) for (const word of line.split(/[\s•·,/|-]+/)) if (POSITION_ABBREVIATIONS.includes(word)) return word;
  return null;
}
