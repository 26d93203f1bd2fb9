/** The level picker of the admin forms; inside a Field, which gives it its id and aria attributes. */
import { LEVELS, type Level } from "../../lib/levels.ts";
import { input } from "./ui.ts";

interface Props {
  value: Level;
  onChange: (level: Level) => void;
  id?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

export default function LevelSelect({ value, onChange, ...field }: Props) {
  return (
    <select {...field} className={input} value={value} onChange={(e) => onChange(e.target.value as Level)}>
      {LEVELS.map((level) => (
        <option key={level} value={level}>
          {level}
        </option>
      ))}
    </select>
  );
}
