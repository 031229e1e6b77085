import { useLoaderData } from "@remix-run/react";

/** A 24-item list from a loader: about what one page of a directory does, with nothing else. */
export function loader() {
  return { items: Array.from({ length: 24 }, (_, i) => ({ id: i + 1, name: `Agent ${i + 1}`, city: i % 2 === 0 ? "Dallas" : "Tulsa" })) };
}

export default function Index() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Agents</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            {item.name}, {item.city}
          </li>
        ))}
      </ul>
    </main>
  );
}
