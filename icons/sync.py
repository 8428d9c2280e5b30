"""Copy the category and widget icons from ``icons/`` into the package
(``orangecontrib/oblique/widgets/icons/``); ``logo.svg`` stays here."""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ICONS = os.path.join(os.path.dirname(HERE), "orangecontrib", "oblique", "widgets",
                             "icons")
#: Icons of the repository only, not of the package.
NOT_IN_PACKAGE = {"logo.svg"}


def package_icons():
    """Names of the icons that the package carries a copy of."""
    return sorted(name for name in os.listdir(HERE)
                  if name.endswith(".svg") and name not in NOT_IN_PACKAGE)


def main():
    for name in package_icons():
        shutil.copyfile(os.path.join(HERE, name), os.path.join(PACKAGE_ICONS, name))
        print(name)


if __name__ == "__main__":
    main()
