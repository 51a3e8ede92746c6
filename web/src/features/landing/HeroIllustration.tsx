// Hero artwork drawn inline (no image request, no layout shift): a stained page turning into a clean one.
const LINES = [0, 1, 2, 3, 4, 5, 6, 7, 8];

function Page({ x, damaged }: { x: number; damaged: boolean }) {
  return (
    <g transform={`translate(${x} 20)`}>
      <rect
        width="220"
        height="290"
        rx="10"
        className={damaged ? 'fill-amber-100 dark:fill-amber-200' : 'fill-white'}
        stroke="#cbd5e1"
      />
      <rect
        x="22"
        y="26"
        width="120"
        height="14"
        rx="3"
        className={damaged ? 'fill-stone-400' : 'fill-slate-800'}
      />
      {LINES.map((i) => (
        <rect
          key={i}
          x="22"
          y={60 + i * 22}
          width={i % 3 === 2 ? 130 : 176}
          height="8"
          rx="3"
          className={damaged ? 'fill-stone-400' : 'fill-slate-500'}
          opacity={damaged ? (i % 2 ? 0.35 : 0.6) : 1}
        />
      ))}
      {damaged ? (
        <>
          <circle cx="150" cy="120" r="42" className="fill-amber-700" opacity="0.18" />
          <circle cx="70" cy="220" r="30" className="fill-amber-800" opacity="0.15" />
          <path d="M10 180 L210 150" stroke="#a8a29e" strokeWidth="2" opacity="0.6" />
        </>
      ) : null}
    </g>
  );
}

export function HeroIllustration() {
  return (
    <svg
      viewBox="0 0 520 330"
      role="img"
      aria-label="A stained, faded page next to its clean restored version"
      className="h-auto w-full"
    >
      <Page x={20} damaged />
      <g transform="translate(248 150)">
        <circle r="22" className="fill-indigo-600" />
        <path d="M-8 0h14M2 -7l7 7-7 7" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" />
      </g>
      <Page x={280} damaged={false} />
    </svg>
  );
}
