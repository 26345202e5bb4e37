import { Link } from "../ui/components.tsx"
import { Invoices } from "./invoices/Invoices.tsx"
import { Overview } from "./overview/Overview.tsx"
import { Transactions } from "./transactions/Transactions.tsx"

const TABS = [
  { path: "/finance", label: "Overview" },
  { path: "/finance/transactions", label: "Transactions" },
  { path: "/finance/invoices", label: "Invoices" }
] as const

const tabOf = (path: string) =>
  TABS.slice(1).find((tab) => path === tab.path || path.startsWith(`${tab.path}/`))?.path ?? "/finance"

/** The business-finance section: its own tabs under the main navigation, one page each. */
export const Finance = ({ path }: { readonly path: string }) => {
  const tab = tabOf(path)
  return (
    <>
      <nav aria-label="Finance" class="tabs">
        <ul>
          {TABS.map((item) => (
            <li key={item.path}>
              <Link to={item.path} current={tab === item.path}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === "/finance/transactions" ? <Transactions /> : tab === "/finance/invoices" ? <Invoices /> : <Overview />}
    </>
  )
}
