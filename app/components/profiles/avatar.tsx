import type { ProfileAvatar as AvatarName } from "~/db/age-ratings";

/** The built-in pictures a profile may wear: a colour and a simple drawing each (no image to fetch). */
const PICTURES: Record<AvatarName, { background: string; drawing: JSX.Element }> = {
  sun: {
    background: "#f59e0b",
    drawing: (
      <>
        <circle cx="16" cy="16" r="6" fill="#fff7ed" />
        <path
          d="M16 4v4M16 24v4M4 16h4M24 16h4M7.5 7.5l2.8 2.8M21.7 21.7l2.8 2.8M7.5 24.5l2.8-2.8M21.7 10.3l2.8-2.8"
          stroke="#fff7ed"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </>
    ),
  },
  moon: { background: "#4338ca", drawing: <path d="M20 6a10 10 0 1 0 6 16 8 8 0 0 1-6-16z" fill="#e0e7ff" /> },
  star: {
    background: "#0e7490",
    drawing: <path d="M16 5l3.2 7 7.3.7-5.5 4.9 1.6 7.4L16 21.3 9.4 25l1.6-7.4-5.5-4.9 7.3-.7z" fill="#fef9c3" />,
  },
  drum: {
    background: "#9a3412",
    drawing: (
      <>
        <ellipse cx="16" cy="10" rx="8" ry="3" fill="#ffedd5" />
        <path d="M8 10v11c0 1.7 3.6 3 8 3s8-1.3 8-3V10" fill="none" stroke="#ffedd5" strokeWidth="2" />
        <path d="M9 12l14 9M23 12L9 21" stroke="#ffedd5" strokeWidth="1.5" />
      </>
    ),
  },
  lion: {
    background: "#b45309",
    drawing: (
      <>
        <circle cx="16" cy="16" r="10" fill="#78350f" />
        <circle cx="16" cy="16" r="6.5" fill="#fde68a" />
        <circle cx="13.5" cy="15" r="1" fill="#78350f" />
        <circle cx="18.5" cy="15" r="1" fill="#78350f" />
        <path d="M14.5 18.5h3L16 20z" fill="#78350f" />
      </>
    ),
  },
  bird: {
    background: "#047857",
    drawing: (
      <>
        <path d="M7 18c3-6 9-8 14-6l4-2-1.5 4.5C22 20 15 23 7 18z" fill="#d1fae5" />
        <circle cx="21" cy="13" r="1" fill="#047857" />
      </>
    ),
  },
  fish: {
    background: "#1d4ed8",
    drawing: (
      <>
        <path d="M6 16c4-6 12-6 16 0-4 6-12 6-16 0zM22 16l5-4v8z" fill="#dbeafe" />
        <circle cx="11" cy="15" r="1" fill="#1d4ed8" />
      </>
    ),
  },
  tree: {
    background: "#15803d",
    drawing: (
      <>
        <circle cx="16" cy="12" r="7" fill="#dcfce7" />
        <rect x="14.5" y="17" width="3" height="9" rx="1" fill="#dcfce7" />
      </>
    ),
  },
};

/** A profile's picture at `size` CSS pixels; decorative (the name beside it says who). */
export function ProfileAvatar({ avatar, size = 48 }: { avatar: AvatarName; size?: number }) {
  const picture = PICTURES[avatar] ?? PICTURES.sun;
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 32 32"
      width={size}
      height={size}
      className="shrink-0 rounded-lg"
      style={{ background: picture.background }}
    >
      {picture.drawing}
    </svg>
  );
}
