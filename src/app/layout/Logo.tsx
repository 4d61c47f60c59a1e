/** Emberline's mark: an ember over a power line. */
export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className="emberline-logo">
      <path
        d="M12 2c1 3.5 5 5.5 5 10a5 5 0 0 1-10 0c0-2.5 1.5-4 2.5-5 .2 1.6 1 2.6 2 3 0-3-.5-5.5.5-8z"
        fill="#ff6b35"
      />
      <path d="M2 20h20" stroke="#abb3bf" strokeWidth="1.5" />
    </svg>
  )
}
