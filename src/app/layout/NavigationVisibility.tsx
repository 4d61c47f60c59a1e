import { createContext, useContext, useState, type ReactNode } from 'react'

interface NavigationVisibility {
  visible: boolean
  setVisible(visible: boolean): void
}

const Context = createContext<NavigationVisibility>({ visible: true, setVisible: () => {} })

/** The navigation-visibility flag of spec §2: the top bar shows only while it is true. */
export function NavigationVisibilityProvider({ children }: { children: ReactNode }) {
  const [visible, setVisible] = useState(true)
  return <Context.Provider value={{ visible, setVisible }}>{children}</Context.Provider>
}

export function useNavigationVisibility(): NavigationVisibility {
  return useContext(Context)
}
