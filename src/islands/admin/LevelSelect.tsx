/**
 * The level picker of the admin forms; inside a Field, which gives it its id and aria attributes.
 * `levels` narrows the choice (an access code is issued for the locked levels only).
 */
import { LEVELS, type Level } from "../../lib/levels.ts";
import { input } from "./ui.ts";

interface Props {
  value: Level;
  onChange: (level: Level) => void;
  levels?: readonly Level[];
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

export default function LevelSelect({ value, onChange, levels = LEVELS, ...field }: Props) {
  return (
    <select {...field} className={input} value={value} onChange={(e) => onChange(e.target.value as Level)}>
      {levels.map((level) => (
        <option key={level} value={level}>
          {level}
        </option>
      ))}
    </select>
  );
}
