print(type(require), type(package), type(package.loaded), package.loaded.string == string)
print(package.loaded._G == _G, type(package.path))
