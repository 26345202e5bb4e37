import { PageHeader } from "../../ui/components.tsx"

export const Invoices = () => <PageHeader title="Invoices">Being built.</PageHeader>
